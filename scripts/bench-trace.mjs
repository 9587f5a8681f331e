// @ts-check
// Where the main thread goes when a page loads (issue 40): the page is loaded twice in
// Chromium at Lighthouse's 4x CPU slowdown, once under a performance trace (CDP Tracing,
// devtools.timeline) and once under the CPU profiler (CDP Profiler, 100 us samples).
//
// The trace gives main-thread time by kind of work (script evaluation, parse and compile,
// style and layout, paint, HTML parsing, garbage collection) and by script (the URL whose
// evaluation or function call the time falls under; the page's own URL is its inline
// scripts, the self.__next_f pushes among them).
//
// The profile gives the time by module of the bundles. The export has no source maps and
// its functions are minified, so a module is named by what Turbopack keeps: its export
// names (e.s(["CategoryProducts", ...])) or a known framework module's marker. A module
// is the framework's when the blank Next export (scripts/bench-blank.mjs) holds a module
// of the same id (Turbopack's ids are hashes of the module's path, the same in both
// builds), else it is the shop's. Each sample goes to the innermost shop module on its
// stack (a component's render, a hook, an effect, a handler: the shop's code and what it
// calls), else to a phase of the framework: the RSC payload (React's flight client
// parsing the inline self.__next_f rows), React (hydration, render and commit: the
// reconciler's own work, which no production build can split by component), or the rest
// of Next's runtime.
//
//   node scripts/bench-trace.mjs URL [BLANK_EXPORT_DIR]
//
// A shop module is named by the site/ file that holds its component names and most of its
// string literals (sourceFinder), else by those strings.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const chromiumFlags = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Lighthouse's mobile CPU slowdown. */
export const CPU_SLOWDOWN = 4;

/** How long after the load event the trace and the profile go on (idle callbacks,
 * prefetches and effects the load sets going). */
export const SETTLE_MS = 5000;

/** Trace event names by kind of work (what Lighthouse's main-thread-tasks groups too). */
const KINDS = {
  'script evaluation': [
    'EvaluateScript',
    'v8.evaluateModule',
    'FunctionCall',
    'TimerFire',
    'EventDispatch',
    'FireAnimationFrame',
    'FireIdleCallback',
    'RunMicrotasks',
    'V8.Execute',
    'v8.run',
    'v8.callFunction',
    'XHRReadyStateChange',
    'XHRLoad',
    'RunTask_JS',
  ],
  'script parse and compile': [
    'v8.compile',
    'v8.compileModule',
    'V8.CompileCode',
    'v8.parseOnBackground',
    'v8.produceCache',
    'v8.produceModuleCache',
    'CacheScript',
    'V8.CompileLazy',
  ],
  'style and layout': ['UpdateLayoutTree', 'RecalculateStyles', 'Layout', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation', 'InvalidateLayout'],
  'paint and composite': [
    'Paint',
    'PrePaint',
    'Layerize',
    'UpdateLayer',
    'UpdateLayerTree',
    'CompositeLayers',
    'Commit',
    'PaintImage',
    'Decode Image',
    'ImageDecodeTask',
  ],
  'HTML parsing': ['ParseHTML'],
};
const kindOf = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind])));

/** The kind of work a trace event's own time is. */
export function kindOfEvent(name) {
  if (kindOf.has(name)) return kindOf.get(name);
  if (/GC|Sweep/i.test(name)) return 'garbage collection';
  return 'other';
}

/** The script a trace event runs, where it names one. */
function urlOf(e) {
  const d = e.args?.data;
  return d?.url || d?.stackTrace?.[0]?.url || e.args?.fileName || null;
}

/** The renderer main thread that did the most work: { pid, tid }. */
export function mainThreadOf(events) {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const busy = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && mains.has(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const best = [...busy].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error('the trace has no renderer main thread with tasks');
  const [pid, tid] = best[0].split(':').map(Number);
  return { pid, tid };
}

/** The main thread's time from a trace's events: the total of its top-level tasks, their
 * own time by kind of work and by script (each event's own time goes to the nearest script
 * it or an enclosing event names), and the long tasks (over 50 ms) with the sum of their
 * parts over 50 ms. pageUrl names the page's inline scripts. Times in ms. */
export function traceCategories(events, pageUrl = '') {
  const { pid, tid } = mainThreadOf(events);
  // The load event: tasks that start after it are the settle time's (idle work, prefetch).
  // The page's load event: the last MarkLoad of the main frame (an earlier one may be the
  // blank page the tab opened with).
  const marks = events.filter((e) => e.pid === pid && e.name === 'MarkLoad' && (e.args?.data?.isOutermostMainFrame ?? e.args?.data?.isMainFrame ?? true));
  const loadAt = marks.length ? Math.max(...marks.map((e) => e.ts)) : Infinity;
  let afterLoad = 0;
  const spans = [];
  const open = [];
  for (const e of events) {
    if (e.pid !== pid || e.tid !== tid) continue;
    if (e.ph === 'X' && typeof e.dur === 'number') spans.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, url: urlOf(e) });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const i = open.findLastIndex((b) => b.name === e.name);
      if (i >= 0) {
        const [b] = open.splice(i, 1);
        spans.push({ name: b.name, ts: b.ts, end: e.ts, url: urlOf(b) });
      }
    }
  }
  spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
  const byKind = new Map();
  const byScript = new Map();
  const add = (m, k, us) => m.set(k, (m.get(k) ?? 0) + us);
  const stack = [];
  let total = 0;
  const longTasks = [];
  const otherNames = new Map();
  const close = (s) => {
    const kind = kindOfEvent(s.name);
    add(byKind, kind, s.self);
    if (kind === 'other') add(otherNames, s.name, s.self);
    add(byScript, s.script ?? '(no script)', s.self);
  };
  for (const s of spans) {
    while (stack.length && stack[stack.length - 1].end <= s.ts) close(stack.pop());
    const parent = stack[stack.length - 1];
    // A span that starts inside another but ends after it is not nested: cut it to its parent.
    if (parent && s.end > parent.end) s.end = parent.end;
    const dur = s.end - s.ts;
    if (parent) parent.self -= dur;
    else {
      total += dur;
      if (s.ts >= loadAt) afterLoad += dur;
      if (dur > 50_000) longTasks.push(dur / 1000);
    }
    const url = s.url === pageUrl && pageUrl ? 'inline scripts of the page' : s.url;
    stack.push({ ...s, self: dur, script: url ?? parent?.script ?? null });
  }
  while (stack.length) close(stack.pop());
  const list = (m) =>
    [...m]
      .map(([name, us]) => ({ name, ms: us / 1000 }))
      .filter((x) => x.ms > 0)
      .sort((a, b) => b.ms - a.ms);
  return {
    totalMs: total / 1000,
    afterLoadMs: afterLoad / 1000,
    byKind: list(byKind),
    byScript: list(byScript),
    otherNames: list(otherNames),
    longTasks: longTasks.length,
    blockingMs: longTasks.reduce((sum, ms) => sum + ms - 50, 0),
  };
}

/** The modules of a Turbopack chunk: [{ id, start, end }] by offset in its text, in order.
 * A module is its id and its factory in the chunk's push([..., id, (e, t, r) => {...}]). */
export function chunkModules(text) {
  const starts = [];
  const re = /([[,]\s*)(\d+),(?:\([a-z](?:,[a-z])*\)|[a-z])=>\{/g;
  for (let m; (m = re.exec(text));) starts.push({ id: Number(m[2]), start: m.index + m[1].length });
  return starts.map((s, i) => ({ ...s, end: i + 1 < starts.length ? starts[i + 1].start : text.length }));
}

/** Marker strings of framework modules a reader knows by their job.
 * @type {[string, RegExp][]} */
const MARKERS = [
  ['React flight client (RSC payload)', /"\$-Infinity"[\s\S]*getReader|getReader[\s\S]*"\$-Infinity"/],
  ['react-dom', /hydrateRoot/],
  ['scheduler', /unstable_scheduleCallback/],
  ['react', /react\.transitional\.element/],
  ['next/link', /useLinkStatus/],
];

/** The export names of a Turbopack ES module: e.s(["name", kind, value, ...]). */
function esmExports(text) {
  return text.includes('e.s([') ? [...text.matchAll(/[[,]"([A-Za-z_$][\w$]*)",\d,/g)].map((m) => m[1]) : [];
}

/** The distinct double-quoted string literals of minified code, in order. */
function stringLiterals(text) {
  return [...new Set([...text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((m) => m[1]))];
}

/** A module's name. A framework module: a marker's, else its export names (CommonJS:
 * Object.defineProperty(exports, "a", ...)), else its id. A shop module: its component
 * names (exports of three letters or more starting with a capital; Turbopack mangles the
 * others to a letter or two), else the first string literals of its code, which say what
 * it is to a reader of site/ (a class name, a label). */
export function moduleLabel(id, text, framework = true) {
  const exported = new Set();
  for (const n of esmExports(text)) exported.add(n);
  for (const m of text.matchAll(/Object\.defineProperty\([a-z],"([A-Za-z_$][\w$]*)",\{enumerable/g)) exported.add(m[1]);
  exported.delete('default');
  const list = (names) => `${names.slice(0, 4).join(', ')}${names.length > 4 ? ', ...' : ''} (module ${id})`;
  if (framework) {
    for (const [name, re] of MARKERS) if (re.test(text)) return name;
    return exported.size ? list([...exported]) : `module ${id}`;
  }
  const components = [...exported].filter((n) => /^[A-Z]\w{2,}$/.test(n));
  if (components.length) return list(components);
  const strings = stringLiterals(text).filter((x) => /^[A-Za-z][\w .:/-]{3,40}$/.test(x) && x !== 'use strict' && x !== 'function' && x !== 'undefined');
  return strings.length ? `"${strings.slice(0, 3).join('", "')}" (module ${id})` : `module ${id}`;
}

/** The offset of each line's start in a text. */
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Whether a module is the framework's: the blank export holds its id, or it is CommonJS
 * (Next's compiled client modules, next/link among them, which the blank page does not
 * load; the shop's own code is ES modules, which Turbopack writes with e.s([...])). */
export function isFrameworkModule(id, text, frameworkIds) {
  return frameworkIds.has(id) || /Object\.defineProperty\([a-z],"__esModule"/.test(text);
}

/** The site/ source file a shop module was built from, found by what minifying keeps: its
 * component names (`function Name`) and its string literals. Answers a function of a
 * module's text to its path, or to null when no file holds enough of them.
 * sources: Map of path to text. */
export function sourceFinder(sources) {
  return (text) => {
    const names = esmExports(text).filter((n) => /^[A-Z]\w{2,}$/.test(n));
    const strings = stringLiterals(text)
      .filter((x) => x.length >= 4 && x.length <= 60 && x !== 'use strict' && x !== 'use client')
      .slice(0, 40);
    let best = null;
    let bestScore = 0;
    for (const [file, src] of sources) {
      let score = 0;
      for (const n of names) if (new RegExp(`(function|const|class) ${n}\\b`).test(src)) score += 10;
      for (const x of strings) if (src.includes(`'${x}'`) || src.includes(`"${x}"`) || src.includes(`\`${x}\``)) score += 1;
      if (score > bestScore) [best, bestScore] = [file, score];
    }
    return bestScore >= Math.min(3, names.length * 10 + strings.length) && best ? best : null;
  };
}

/** The site's own source files (app, components, lib; tests left out), path to text. */
export function siteSources(siteDir) {
  const out = new Map();
  for (const dir of ['app', 'components', 'lib']) {
    for (const f of readdirSync(path.join(siteDir, dir), { recursive: true })) {
      const rel = path.join(dir, String(f));
      if (/\.(tsx?|jsx?)$/.test(rel) && !/\.test\./.test(rel)) out.set(`site/${rel}`, readFileSync(path.join(siteDir, rel), 'utf8'));
    }
  }
  return out;
}

/** A locator over scripts' texts: (url, line, column) to { label, framework }, by the
 * Turbopack module the position falls in. frameworkIds: module ids the blank export holds;
 * sourceOf: names a shop module by its source file (sourceFinder).
 * @param {Map<string, string>} scripts
 * @param {Set<number>} frameworkIds
 * @param {string} [pageUrl]
 * @param {(text: string) => string | null} [sourceOf] */
export function moduleLocator(scripts, frameworkIds, pageUrl = '', sourceOf = undefined) {
  const parsed = new Map();
  for (const [url, text] of scripts) {
    const modules = chunkModules(text).map((m) => {
      const body = text.slice(m.start, m.end);
      const framework = isFrameworkModule(m.id, body, frameworkIds);
      const label = moduleLabel(m.id, body, framework);
      return { ...m, label: framework ? label : (sourceOf?.(body) ?? label), framework };
    });
    parsed.set(url, { lines: lineStarts(text), modules, name: path.basename(new URL(url).pathname) });
  }
  return (url, line, column) => {
    if (!url) return null;
    if (url === pageUrl) return { label: 'inline scripts of the page', framework: true };
    const p = parsed.get(url);
    if (!p) return { label: url, framework: true };
    const offset = (p.lines[line] ?? 0) + column;
    const m = p.modules.findLast((x) => x.start <= offset);
    if (!m || offset >= m.end) return { label: `${p.name} (outside a module: the runtime or a plain script)`, framework: true };
    return { label: m.label, framework: m.framework };
  };
}

/** What V8's own profile entries are. */
const V8_ENTRIES = {
  '(program)': "(program): the browser's own work outside JavaScript (HTML parsing, style, layout, paint)",
  '(garbage collector)': '(garbage collector)',
};

/** A CPU profile's time by module (own time of its functions) and by phase: each sample
 * goes to the innermost shop module on its stack, else to the RSC payload when React's
 * flight client is on it, else to React when react-dom is on it, else to the innermost
 * framework module, else to V8's own entries ((garbage collector), (program)). Idle is
 * left out. Times in ms. */
export function profileBreakdown(profile, locate) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const where = new Map();
  const at = (n) => {
    if (!where.has(n.id)) {
      const f = n.callFrame;
      where.set(n.id, f.url ? locate(f.url, f.lineNumber, f.columnNumber) : null);
    }
    return where.get(n.id);
  };
  const phaseOfNode = new Map();
  const phaseOf = (id) => {
    if (phaseOfNode.has(id)) return phaseOfNode.get(id);
    const leaf = byId.get(id);
    let shop = null;
    let flight = false;
    let react = false;
    let framework = null;
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const w = at(byId.get(cur));
      if (!w) continue;
      if (!w.framework) {
        shop = w.label;
        break;
      }
      if (w.label.startsWith('React flight client')) flight = true;
      else if (w.label === 'react-dom') react = true;
      framework ??= w.label;
    }
    const fn = V8_ENTRIES[leaf.callFrame.functionName] ?? leaf.callFrame.functionName;
    const phase = shop
      ? `shop: ${shop}`
      : flight
        ? 'RSC payload parsing (React flight client)'
        : react
          ? 'React: hydration, render and commit (react-dom)'
          : (framework ?? (fn.startsWith('(') ? fn : '(no script)'));
    phaseOfNode.set(id, phase);
    return phase;
  };
  const byModule = new Map();
  const byPhase = new Map();
  const add = (m, k, us) => m.set(k, (m.get(k) ?? 0) + us);
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === '(idle)') return;
    total += us;
    const w = at(n);
    const fn = n.callFrame.functionName;
    add(byModule, w ? `${w.framework ? '' : 'shop: '}${w.label}` : (V8_ENTRIES[fn] ?? (fn ? `${fn} (browser built-in)` : '(anonymous)')), us);
    add(byPhase, phaseOf(id), us);
  });
  const list = (m) => [...m].map(([name, us]) => ({ name, ms: us / 1000 })).sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, byModule: list(byModule), byPhase: list(byPhase) };
}

/** The module ids of a static export's Turbopack chunks. */
export function exportModuleIds(outDir) {
  const dir = path.join(outDir, '_next', 'static', 'chunks');
  const ids = new Set();
  for (const f of readdirSync(dir, { recursive: true })) {
    if (!String(f).endsWith('.js')) continue;
    for (const m of chunkModules(readFileSync(path.join(dir, String(f)), 'utf8'))) ids.add(m.id);
  }
  return ids;
}

/** Loads url in a fresh Chromium context at the CPU slowdown, under a trace and then
 * under the CPU profiler; answers the trace's and the profile's breakdowns.
 * blankOutDir: the blank Next export whose module ids are the framework's;
 * siteDir: the site's sources, to name the shop's modules by file; reducedMotion: load
 * the page as a visitor who asks for reduced motion (CSS animations still).
 * @param {string} url
 * @param {{ blankOutDir?: string, siteDir?: string, cpuSlowdown?: number, settleMs?: number, reducedMotion?: boolean }} [options] */
export async function traceBreakdown(url, { blankOutDir, siteDir, cpuSlowdown = CPU_SLOWDOWN, settleMs = SETTLE_MS, reducedMotion = false } = {}) {
  const frameworkIds = blankOutDir ? exportModuleIds(blankOutDir) : new Set();
  const sourceOf = siteDir ? sourceFinder(siteSources(siteDir)) : undefined;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumFlags });
  try {
    const fresh = async () => {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        isMobile: true,
        deviceScaleFactor: 1.75,
        reducedMotion: reducedMotion ? 'reduce' : 'no-preference',
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      return { context, page, cdp };
    };
    // The trace.
    const a = await fresh();
    await browser.startTracing(a.page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'toplevel', 'blink.user_timing', 'loading'],
    });
    await a.page.goto(url, { waitUntil: 'load' });
    await a.page.waitForTimeout(settleMs);
    const buffer = await browser.stopTracing();
    await a.context.close();
    const parsed = JSON.parse(buffer.toString('utf8'));
    const trace = traceCategories(Array.isArray(parsed) ? parsed : parsed.traceEvents, url);

    // The CPU profile, and the scripts it ran (for their modules).
    const b = await fresh();
    const scripts = new Map();
    b.page.on('response', async (res) => {
      if (res.request().resourceType() === 'script')
        scripts.set(
          res.url(),
          res.text().catch(() => ''),
        );
    });
    await b.cdp.send('Profiler.enable');
    await b.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await b.cdp.send('Profiler.start');
    await b.page.goto(url, { waitUntil: 'load' });
    await b.page.waitForTimeout(settleMs);
    const { profile } = await b.cdp.send('Profiler.stop');
    await b.context.close();
    const texts = new Map();
    for (const [u, t] of scripts) texts.set(u, await t);
    const profiled = profileBreakdown(profile, moduleLocator(texts, frameworkIds, url, sourceOf));
    return { url, cpuSlowdown, settleMs, reducedMotion, trace, profile: profiled, frameworkModules: frameworkIds.size };
  } finally {
    await browser.close();
  }
}

const ms = (n) => `${Math.round(n).toLocaleString('en-GB')} ms`;
const pct = (n, total) => `${total ? Math.round((100 * n) / total) : 0}%`;

/** The breakdowns as Markdown tables (the largest rows; the rest summed). */
export function traceTables(t, { rows = 15 } = {}) {
  const table = (head, list, total) => {
    const shown = list.slice(0, rows);
    const rest = list.slice(rows).reduce((s, x) => s + x.ms, 0);
    const lines = [`| ${head} | main thread | share |`, '|---|---|---|'];
    for (const x of shown) lines.push(`| ${x.name} | ${ms(x.ms)} | ${pct(x.ms, total)} |`);
    if (rest > 0) lines.push(`| (${list.length - shown.length} more) | ${ms(rest)} | ${pct(rest, total)} |`);
    return lines.join('\n');
  };
  return [
    `Main thread of ${t.url} at ${t.cpuSlowdown}x CPU${t.reducedMotion ? ', reduced motion' : ''}, from navigation to ${t.settleMs} ms after load: ${ms(t.trace.totalMs)} in tasks (${ms(t.trace.totalMs - t.trace.afterLoadMs)} of them started before the load event), ${t.trace.longTasks} long tasks (over 50 ms) adding ${ms(t.trace.blockingMs)} over 50 ms`,
    '',
    table('kind of work (trace)', t.trace.byKind, t.trace.totalMs),
    '',
    table('"other" by trace event', t.trace.otherNames.slice(0, 8), t.trace.totalMs),
    '',
    table('script (trace; the time under its evaluation and calls)', t.trace.byScript, t.trace.totalMs),
    '',
    `CPU profile, a second load: ${ms(t.profile.totalMs)} sampled (idle left out); framework modules: the ${t.frameworkModules} module ids of the blank Next export`,
    '',
    table('phase (CPU profile)', t.profile.byPhase, t.profile.totalMs),
    '',
    table('module, own time (CPU profile)', t.profile.byModule, t.profile.totalMs),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, blankOutDir] = process.argv.slice(2);
  if (!url) throw new Error('usage: node scripts/bench-trace.mjs URL [BLANK_EXPORT_DIR]');
  const t = await traceBreakdown(url, { blankOutDir, siteDir: path.join(import.meta.dirname, '..', 'site') });
  console.log(traceTables(t, { rows: 25 }));
}
