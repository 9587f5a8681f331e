// @ts-check
// The breakdowns of the trace bench (scripts/bench-trace.mjs) over small hand-made traces,
// chunks and profiles, without Chromium. Run: node --test scripts/bench-trace.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import { chunkModules, isFrameworkModule, kindOfEvent, moduleLabel, moduleLocator, profileBreakdown, sourceFinder, traceCategories } from './bench-trace.mjs';

const page = 'http://x/c/';
/** @param {string} name @param {number} ts @param {number} dur @param {object} [data] @param {number} [tid] */
const X = (name, ts, dur, data = undefined, tid = 1) => ({ ph: 'X', pid: 7, tid, name, ts, dur, args: data ? { data } : {} });

test('trace: own time by kind and by script, nested events and long tasks', () => {
  const events = [
    { ph: 'M', pid: 7, tid: 1, name: 'thread_name', args: { name: 'CrRendererMain' } },
    { ph: 'M', pid: 7, tid: 2, name: 'thread_name', args: { name: 'Compositor' } },
    // A 100 ms task: 60 ms evaluating a chunk (10 of them compiling it), 30 ms of layout.
    X('RunTask', 0, 100_000),
    X('EvaluateScript', 1_000, 60_000, { url: 'http://x/a.js' }),
    X('v8.compile', 2_000, 10_000, { url: 'http://x/a.js' }),
    X('Layout', 70_000, 30_000),
    // A 20 ms task running the page's inline script, and HTML parsing as B/E.
    X('RunTask', 200_000, 20_000),
    X('EvaluateScript', 200_000, 5_000, { url: page }),
    { ph: 'B', pid: 7, tid: 1, name: 'ParseHTML', ts: 206_000, args: {} },
    { ph: 'E', pid: 7, tid: 1, name: 'ParseHTML', ts: 216_000, args: {} },
    // Another thread is left out.
    X('RunTask', 0, 500_000, undefined, 2),
  ];
  const t = traceCategories(events, page);
  assert.equal(t.totalMs, 120);
  assert.deepEqual(Object.fromEntries(t.byKind.map((k) => [k.name, k.ms])), {
    'script evaluation': 55,
    'style and layout': 30,
    'HTML parsing': 10,
    'script parse and compile': 10,
    other: 15,
  });
  assert.deepEqual(Object.fromEntries(t.byScript.map((k) => [k.name, k.ms])), { 'http://x/a.js': 60, '(no script)': 55, 'inline scripts of the page': 5 });
  assert.equal(t.longTasks, 1);
  assert.equal(t.blockingMs, 50);
  assert.equal(kindOfEvent('MinorGC'), 'garbage collection');
});

const chunk =
  '(globalThis.TURBOPACK||(globalThis.TURBOPACK=[])).push([null,111,(e,t,r)=>{"use strict";r.hydrateRoot=1},\n' +
  '222,e=>{"use strict";var t=e.i(111);e.s(["CategoryProducts",0,function(){return "grid-cards"},"x",0,1])},' +
  '333,e=>{"use strict";e.s(["a",0,function(){return "menu-toggle"}])}])';

test('chunk modules and their names', () => {
  const ms = chunkModules(chunk);
  assert.deepEqual(
    ms.map((m) => m.id),
    [111, 222, 333],
  );
  assert.ok(chunk.slice(ms[1].start, ms[1].end).includes('CategoryProducts'));
  assert.equal(moduleLabel(111, chunk.slice(ms[0].start, ms[0].end)), 'react-dom');
  assert.equal(moduleLabel(222, chunk.slice(ms[1].start, ms[1].end), false), 'CategoryProducts (module 222)');
  assert.equal(moduleLabel(333, chunk.slice(ms[2].start, ms[2].end), false), '"menu-toggle" (module 333)');
});

test('profile: samples to the innermost shop module, else to React or the RSC payload', () => {
  const locate = moduleLocator(new Map([['http://x/c.js', chunk]]), new Set([111]), page);
  const col = (s) => chunk.indexOf(s) - chunk.indexOf('\n') - 1;
  const frame = (id, functionName, url = '', columnNumber = 0, lineNumber = 1, children = []) => ({
    id,
    callFrame: { functionName, url, lineNumber, columnNumber },
    children,
  });
  const profile = {
    nodes: [
      frame(1, '(root)', '', 0, 0, [2, 5, 6, 7]),
      frame(2, 'work', 'http://x/c.js', 70, 0, [3]), // react-dom (line 0)
      frame(3, 'render', 'http://x/c.js', col('function(){return "grid-cards"'), 1, [4]), // CategoryProducts
      frame(4, 'jsx', 'http://x/c.js', 70, 0), // back in react-dom: still the grid's
      frame(5, '(program)'),
      frame(6, '(idle)'),
      frame(7, 'push', page, 3),
    ],
    samples: [4, 4, 2, 5, 6, 7],
    timeDeltas: [0, 1000, 1000, 2000, 500, 9000, 250],
  };
  const p = profileBreakdown(profile, locate);
  assert.equal(p.totalMs, 4.75, 'idle left out');
  const phases = Object.fromEntries(p.byPhase.map((x) => [x.name, x.ms]));
  assert.equal(phases['shop: CategoryProducts (module 222)'], 2);
  assert.equal(phases['React: hydration, render and commit (react-dom)'], 2);
  assert.equal(phases['inline scripts of the page'], 0.25);
  assert.ok(Object.keys(phases).some((k) => k.startsWith('(program)')));
  const modules = Object.fromEntries(p.byModule.map((x) => [x.name, x.ms]));
  assert.equal(modules['react-dom'], 4, 'own time: the jsx frames are react-dom');
});

test("a shop module named by its source file; CommonJS modules are the framework's", () => {
  const find = sourceFinder(
    new Map([
      ['site/components/catalogue/category-products.tsx', "export function CategoryProducts() { return <ul className='grid-cards' />; }"],
      ['site/components/layout/menu.tsx', "export function Menu() { return <nav className='menu-toggle' aria-label='Categories' />; }"],
      ['site/lib/device.ts', "const touch = 'ontouchstart' in window;"],
    ]),
  );
  assert.equal(find('e.s(["CategoryProducts",0,function(){}])'), 'site/components/catalogue/category-products.tsx');
  assert.equal(find('e.s(["a",0,function(){return "menu-toggle"+"Categories"}])'), 'site/components/layout/menu.tsx');
  assert.equal(find('var t="ontouchstart"in window'), 'site/lib/device.ts', 'one string is enough when it is all a module has');
  assert.equal(find('e.s(["b",0,function(){return "nowhere-at-all"+"something else"}])'), null);
  assert.equal(isFrameworkModule(5, '"use strict";Object.defineProperty(r,"__esModule",{value:!0})', new Set()), true);
  assert.equal(isFrameworkModule(5, 'e.s(["X",0,1])', new Set([5])), true);
  assert.equal(isFrameworkModule(6, 'e.s(["X",0,1])', new Set([5])), false);
});
