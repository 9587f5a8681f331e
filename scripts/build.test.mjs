// @ts-check
// The build refuses to publish the example details of shop.json to buyers.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { buildSite, checkPublishable, codeVersion, placeholderProblems, pruneRscFiles, readShopConfig } from './build.mjs';

const shop = readShopConfig();
const placeholders = {
  business: {
    tradingName: 'TradeShop Wholesale',
    legalName: 'TradeShop Wholesale Limited',
    registeredAddress: 'Unit 4, Meadow Lane, Exampleton, EX1 2AB',
    companyNumber: '00000000',
    vatNumber: 'GB000000000',
  },
  bankTransfer: { accountName: 'TradeShop Wholesale', sortCode: '00-00-00', accountNumber: '00000000' },
  contact: { phone: '01632 960 123', email: 'trade@tradeshop.example', address: 'Unit 4, Exampleton', hours: '9 to 5' },
  operations: { alarm_email: 'alerts@example.com' },
};
const real = {
  business: {
    tradingName: 'TradeShop Wholesale',
    legalName: 'TradeShop Wholesale Limited',
    registeredAddress: 'Unit 4, Marsh Barton, Exeter, EX2 8LP',
    companyNumber: '09876543',
    vatNumber: 'GB123456789',
  },
  bankTransfer: { accountName: 'TradeShop Wholesale Ltd', sortCode: '20-45-77', accountNumber: '41308826' },
  contact: { phone: '01392 555 010', email: 'trade@tradeshop.co.uk', address: 'Unit 4, Exeter', hours: '9 to 5' },
  operations: { alarm_email: 'alerts@tradeshop.co.uk' },
};

test('every placeholder is named', () => {
  assert.deepEqual(placeholderProblems(placeholders), [
    'business.companyNumber "00000000" is a placeholder',
    'business.vatNumber "GB000000000" is a placeholder',
    'business.registeredAddress "Unit 4, Meadow Lane, Exampleton, EX1 2AB" is an example address',
    'bankTransfer.sortCode "00-00-00" is a placeholder',
    'bankTransfer.accountNumber "00000000" is a placeholder',
    'contact.email "trade@tradeshop.example" is an example address',
    'contact.phone "01632 960 123" is a number kept for drama',
    'contact.address "Unit 4, Exampleton" is an example address',
    'operations.alarm_email "alerts@example.com" is an example address',
  ]);
  assert.deepEqual(placeholderProblems({}), [
    'business.companyNumber "" is a placeholder',
    'business.vatNumber "" is a placeholder',
    'bankTransfer.sortCode "" is a placeholder',
    'bankTransfer.accountNumber "" is a placeholder',
  ]);
  assert.deepEqual(placeholderProblems(real), []);
  // Every domain RFC 2606 keeps for examples, and the shop.json in the repo; not a real domain that merely contains the word.
  const alarm = (/** @type {string} */ alarm_email) => placeholderProblems({ ...real, operations: { alarm_email } });
  for (const email of ['alerts@tradeshop.example', 'a@example.org', 'a@mail.example.net', 'ALERTS@EXAMPLE.COM', shop.operations?.alarm_email ?? '']) {
    assert.deepEqual(alarm(email), [`operations.alarm_email "${email}" is an example address`]);
  }
  for (const email of ['alerts@example-shop.co.uk', 'example@tradeshop.co.uk', 'a@myexample.com']) assert.deepEqual(alarm(email), []);
});

test('staging and production builds refuse placeholders; local builds and real details pass', () => {
  for (const version of ['staging', 'production']) {
    assert.throws(
      () => checkPublishable(placeholders, version),
      (/** @type {Error} */ err) => {
        assert.match(err.message, new RegExp(`^refusing a ${version} build: functions/config/shop.json still holds placeholders`));
        assert.match(err.message, /bankTransfer\.sortCode "00-00-00" is a placeholder/);
        assert.match(err.message, /business\.vatNumber "GB000000000" is a placeholder/);
        return true;
      },
    );
    assert.doesNotThrow(() => checkPublishable(real, version));
  }
  for (const version of [undefined, 'local']) assert.doesNotThrow(() => checkPublishable(placeholders, version));
});

test('buildSite refuses before it builds anything', async () => {
  await assert.rejects(buildSite({ env: { SITE_VERSION: 'production' }, shop: placeholders }), /^Error: refusing a production build/);
});

test('the repo shop.json is read through the shared check, and its example identity is refused for buyers', () => {
  assert.equal(typeof shop.business.tradingName, 'string');
  assert.deepEqual(
    placeholderProblems(shop).filter((p) => p.startsWith('business.')),
    [
      `business.companyNumber "${shop.business.companyNumber}" is a placeholder`,
      `business.vatNumber "${shop.business.vatNumber}" is a placeholder`,
      `business.registeredAddress "${shop.business.registeredAddress}" is an example address`,
    ],
  );
});

test('pruneRscFiles removes the segment and _full RSC files and keeps index.txt, HTML and payloads', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'prune-'));
  const keep = ['index.html', 'index.txt', 'robots.txt', 'a/index.html', 'a/index.txt', 'a/_payload.json', 'a/b/index.txt', 'a/b/notes.txt'];
  const gone = [
    '__next._full.txt',
    '__next._tree.txt',
    'a/__next._full.txt',
    'a/__next._index.txt',
    'a/__next._tree.txt',
    'a/b/__next.$c$slug.__PAGE__.txt',
    'a/b/__next.outlet.section.$d$urltext.$d$pageID.__PAGE__.txt',
  ];
  for (const rel of [...keep, ...gone]) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), rel);
  }
  try {
    assert.equal(pruneRscFiles(dir), gone.length);
    for (const rel of keep) assert.ok(existsSync(path.join(dir, rel)), `${rel} kept`);
    for (const rel of gone) assert.ok(!existsSync(path.join(dir, rel)), `${rel} removed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('codeVersion changes with the site code, its inputs and NEXT_PUBLIC settings, not with outputs, tests or other settings', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'code-'));
  const site = path.join(dir, 'site');
  const put = (/** @type {string} */ rel, /** @type {string} */ body) => {
    mkdirSync(path.dirname(path.join(site, rel)), { recursive: true });
    writeFileSync(path.join(site, rel), body);
  };
  put('app/page.tsx', 'export default 1');
  put('lib/a.ts', 'a');
  const lock = path.join(dir, 'package-lock.json');
  writeFileSync(lock, '{}');
  const env = { NEXT_PUBLIC_SITE_URL: 'http://127.0.0.1:8080', PATH: '/bin' };
  try {
    const v = codeVersion(env, site, [lock]);
    assert.match(v, /^code-[0-9a-f]{16}$/);
    assert.equal(codeVersion({ ...env }, site, [lock]), v, 'same inputs, same version');
    put('out/index.html', 'x');
    put('.next/trace', 'x');
    put('node_modules/x/index.js', 'x');
    put('lib/a.test.ts', 'x');
    put('e2e/b.test.ts', 'x');
    assert.equal(
      codeVersion({ ...env, PATH: '/usr/bin', CATALOGUE_SNAPSHOT_DIR: '/tmp/s' }, site, [lock]),
      v,
      'outputs, tests and other settings do not count',
    );
    assert.notEqual(codeVersion({ ...env, NEXT_PUBLIC_SITE_URL: 'https://shop.example' }, site, [lock]), v);
    assert.notEqual(codeVersion({ ...env, SITE_VERSION: 'staging' }, site, [lock]), v);
    writeFileSync(lock, '{"v":2}');
    assert.notEqual(codeVersion(env, site, [lock]), v);
    writeFileSync(lock, '{}');
    put('lib/a.ts', 'b');
    assert.notEqual(codeVersion(env, site, [lock]), v);
    put('lib/a.ts', 'a');
    assert.equal(codeVersion(env, site, [lock]), v);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
