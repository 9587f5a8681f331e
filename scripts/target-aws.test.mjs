// @ts-check
// The aws target over in-memory stand-ins for S3 (versioned), the KeyValueStore and
// CloudFront: what each release step sends, and that publish, clean up and rollback compose
// through the SDK's commands. This is not AWS: it checks our side of the calls (keys under
// site/, headers, checksums, version ids, UpdateKeys batches and ETags, the order of the
// KVS switch, invalidation and latest.json), not the service's behaviour.
// Run: node --test scripts/*.test.mjs
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import test from 'node:test';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { S3Client } from '@aws-sdk/client-s3';
import { publishExport, rollback } from './publish.mjs';
import { createAwsTarget } from './target-aws.mjs';
import { buildA, buildB, scratch, writeExport } from './release-fixtures.mjs';

const config = { bucket: 'site-bucket', distributionId: 'E123', kvsArn: 'arn:aws:cloudfront::1:key-value-store/k', region: 'eu-west-2' };
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' }; // never used: send is replaced

/** One log of every call, in order, across the three services. */
function fakeAws() {
  /** The SDK commands' names and inputs; an input's shape depends on its command, so any.
   * @type {[string, any][]} */
  const calls = [];
  /** @typedef {{ versionId: string, body: Buffer, cacheControl?: string, contentType?: string, contentEncoding?: string, metadata?: Record<string, string> }} Version */
  /** @type {Map<string, (Version | null)[]>} */
  const objects = new Map(); // key -> versions (null = deleted)
  /** @type {Map<string, string>} */
  const kvsItems = new Map();
  let etag = 1;
  let version = 0;
  const current = (/** @type {string} */ key) => objects.get(key)?.at(-1) ?? null;
  const noSuchKey = () => Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey' });
  const addVersion = (/** @type {string} */ key, /** @type {Omit<Version, 'versionId'>} */ v) => {
    const entry = { versionId: `v${++version}`, ...v };
    objects.set(key, [...(objects.get(key) ?? []), entry]);
    return entry.versionId;
  };

  const s3 = new S3Client({ region: config.region, credentials });
  /** @typedef {{ input: any }} Command an SDK command: its input's shape depends on which */
  s3.send = async (/** @type {Command} */ cmd) => {
    const input = cmd.input;
    calls.push([cmd.constructor.name, input]);
    assert.equal(input.Bucket, config.bucket);
    switch (cmd.constructor.name) {
      case 'PutObjectCommand': {
        const body = Buffer.from(input.Body);
        if (input.ChecksumSHA256) assert.equal(input.ChecksumSHA256, createHash('sha256').update(body).digest('base64'), `checksum of ${input.Key}`);
        return {
          VersionId: addVersion(input.Key, {
            body,
            cacheControl: input.CacheControl,
            contentType: input.ContentType,
            contentEncoding: input.ContentEncoding,
            metadata: input.Metadata,
          }),
        };
      }
      case 'GetObjectCommand': {
        const o = current(input.Key);
        if (!o) throw noSuchKey();
        return { Body: { transformToString: async () => o.body.toString('utf8') } };
      }
      case 'HeadObjectCommand': {
        const o = current(input.Key);
        if (!o) throw noSuchKey();
        return { Metadata: o.metadata };
      }
      case 'ListObjectsV2Command': {
        const keys = [...objects.keys()]
          .filter((k) => current(k) && k.startsWith(input.Prefix))
          .filter((k) => !input.Delimiter || !k.slice(input.Prefix.length).includes(input.Delimiter));
        return { Contents: keys.sort().map((Key) => ({ Key })) };
      }
      case 'CopyObjectCommand': {
        const [, encodedKey = '', versionId] = /^([^?]+)\?versionId=(.+)$/.exec(input.CopySource) ?? [];
        const key = decodeURIComponent(encodedKey.slice(config.bucket.length + 1));
        const from = objects.get(key)?.find((v) => v?.versionId === decodeURIComponent(versionId));
        if (!from) throw Object.assign(new Error('no such version'), { name: 'NoSuchVersion' });
        assert.equal(input.MetadataDirective, 'REPLACE');
        // REPLACE: the copy has the headers the call gives, not the version's.
        return {
          VersionId: addVersion(input.Key, {
            ...from,
            cacheControl: input.CacheControl,
            contentType: input.ContentType,
            contentEncoding: input.ContentEncoding,
          }),
        };
      }
      case 'DeleteObjectsCommand':
        assert.ok(input.Delete.Objects.length <= 1000);
        for (const { Key } of input.Delete.Objects) if (current(Key)) objects.set(Key, [...(objects.get(Key) ?? []), null]);
        return { Errors: [] };
      default:
        throw new Error(`unexpected S3 call ${cmd.constructor.name}`);
    }
  };

  const kvs = new CloudFrontKeyValueStoreClient({ region: config.region, credentials });
  kvs.send = async (/** @type {Command} */ cmd) => {
    const input = cmd.input;
    calls.push([cmd.constructor.name, input]);
    assert.equal(input.KvsARN, config.kvsArn);
    switch (cmd.constructor.name) {
      case 'DescribeKeyValueStoreCommand':
        return { ETag: `e${etag}` };
      case 'UpdateKeysCommand': {
        assert.equal(input.IfMatch, `e${etag}`, 'UpdateKeys carries the current ETag');
        assert.ok((input.Puts?.length ?? 0) + (input.Deletes?.length ?? 0) <= 50, 'at most 50 puts and deletes per call');
        for (const { Key, Value } of input.Puts ?? []) kvsItems.set(Key, Value);
        for (const { Key } of input.Deletes ?? []) kvsItems.delete(Key);
        return { ETag: `e${++etag}` };
      }
      case 'ListKeysCommand':
        return { Items: [...kvsItems].map(([Key, Value]) => ({ Key, Value })) };
      default:
        throw new Error(`unexpected KVS call ${cmd.constructor.name}`);
    }
  };

  const cloudfront = new CloudFrontClient({ region: config.region, credentials });
  cloudfront.send = async (/** @type {Command} */ cmd) => {
    calls.push([cmd.constructor.name, cmd.input]);
    assert.equal(cmd.input.DistributionId, config.distributionId);
    if (cmd.constructor.name === 'CreateInvalidationCommand') return { Invalidation: { Id: 'I1', Status: 'InProgress' } };
    if (cmd.constructor.name === 'GetInvalidationCommand') return { Invalidation: { Id: 'I1', Status: 'Completed' } };
    throw new Error(`unexpected CloudFront call ${cmd.constructor.name}`);
  };

  /** An object's body as a client reads it: decoded when it is stored with Content-Encoding: gzip. */
  const body = (/** @type {string} */ key) => {
    const o = current(key);
    return o && (o.contentEncoding === 'gzip' ? gunzipSync(o.body) : o.body).toString('utf8');
  };
  return { clients: { s3, kvs, cloudfront }, calls, objects, kvsItems, current, body };
}

const quiet = () => {};
/** Build A with enough route rules that the KVS writes take two UpdateKeys calls. */
const manyRules = {
  ...buildA,
  redirects: Array.from({ length: 60 }, (_, i) => ({ source: `/old-${i}/`, target: '/outlet/r/balloons/', status: 301 })),
};

test('the aws target publishes under site/ with headers, checksums, version ids and the KVS in order', async (t) => {
  const dir = scratch(t);
  const aws = fakeAws();
  const target = await createAwsTarget(config, aws.clients);
  const a = writeExport(path.join(dir, 'a'), manyRules);
  const record = await publishExport({ exportDir: a.dir, target, log: quiet });

  for (const [rel, content] of Object.entries(a.files)) assert.equal(aws.body(`site/${rel}`), content, rel);
  const latest = aws.current('site/builds/latest.json');
  assert.equal(latest?.cacheControl, 'no-store');
  assert.equal(latest?.contentType, 'application/json; charset=utf-8');
  assert.equal(aws.current('site/_next/static/chunks/a1b2c3.js')?.cacheControl, 'public, max-age=31536000, immutable');
  assert.equal(aws.current('site/outlet/r/balloons/index.html')?.cacheControl, 'public, max-age=0, s-maxage=60');
  // Compressible files are stored gzip-compressed under their own key, saying so; the
  // files under builds/ stay raw (the edges and tools read them).
  for (const rel of ['outlet/r/balloons/index.html', 'outlet/r/balloons/index.txt', 'outlet/r/balloons/_payload.json', '_next/static/chunks/a1b2c3.js']) {
    const o = aws.current(`site/${rel}`);
    assert.equal(o?.contentEncoding, 'gzip', rel);
    assert.equal(o?.body.length, record.files[rel].storedSize, rel);
    assert.equal(
      record.files[rel].sha256,
      createHash('sha256')
        .update(a.files[rel] ?? '')
        .digest('hex'),
      `${rel}: the manifest hashes the raw bytes`,
    );
  }
  for (const rel of ['builds/latest.json', `builds/meta/${manyRules.id}.json`]) assert.equal(aws.current(`site/${rel}`)?.contentEncoding, undefined, rel);

  // The manifest sits outside site/ with every file's S3 version id.
  const saved = JSON.parse(aws.body(`releases/${manyRules.id}.json`) ?? '');
  assert.deepEqual(saved, record);
  for (const [rel, e] of Object.entries(saved.files)) assert.equal(e.versionId, aws.current(`site/${rel}`)?.versionId, rel);

  // KVS: 60 rules in batches of at most 50, then `build` alone; then the invalidation, then latest.json.
  assert.equal(aws.kvsItems.get('build'), manyRules.id);
  assert.equal(aws.kvsItems.get(`r:${manyRules.id}:/old-7/`), '{"target":"/outlet/r/balloons/","status":301}');
  const names = aws.calls.map(([n, input]) =>
    n === 'PutObjectCommand'
      ? `put ${input.Key}`
      : n === 'UpdateKeysCommand' && input.Puts?.some((/** @type {{ Key: string }} */ p) => p.Key === 'build')
        ? 'switch build'
        : n,
  );
  const updates = aws.calls.filter(([n]) => n === 'UpdateKeysCommand').map(([, i]) => i.Puts.length);
  assert.deepEqual(updates, [50, 10, 1]);
  const at = (/** @type {string} */ name) => names.indexOf(name);
  assert.ok(at(`put site/builds/meta/${manyRules.id}.json`) < at('switch build'));
  assert.ok(at('switch build') < at('CreateInvalidationCommand'));
  assert.ok(at('GetInvalidationCommand') < at('put site/builds/latest.json'), 'latest.json waits for the invalidation to complete');
  assert.ok(at('put site/builds/latest.json') < at(`put releases/${manyRules.id}.json`));
  assert.equal(
    aws.calls.filter(([n, i]) => n === 'ListObjectsV2Command' && i.Prefix === 'site/_next/static/').length,
    1,
    'hashed assets are listed once, not asked for one by one',
  );
  assert.equal(aws.calls.filter(([n]) => n === 'HeadObjectCommand').length, 0);
});

test('the aws target diffs a second build, cleans up, drops old rules, and rolls back from recorded versions', async (t) => {
  const dir = scratch(t);
  const aws = fakeAws();
  const target = await createAwsTarget(config, aws.clients);
  const a = writeExport(path.join(dir, 'a'), buildA);
  await publishExport({ exportDir: a.dir, target, log: quiet });
  aws.kvsItems.set('r:19990101T000000Z-000000:/gone/', '{"target":"/","status":301}'); // rules of a build long gone
  aws.calls.length = 0;
  await publishExport({ exportDir: writeExport(path.join(dir, 'b'), buildB).dir, target, log: quiet });

  const putKeys = aws.calls.filter(([n]) => n === 'PutObjectCommand').map(([, i]) => i.Key);
  assert.ok(!putKeys.includes('site/blog/index.html'), 'an unchanged page is not uploaded');
  assert.ok(!putKeys.includes('site/_next/static/css/a1b2c3.css'), 'a hashed asset already there is not uploaded');
  assert.equal(aws.current('site/outlet/r/retired/index.html'), null, 'a page build B dropped is deleted');
  assert.ok(aws.current('site/_next/static/chunks/a1b2c3.js'), "build A's chunks stay");
  assert.ok(!aws.kvsItems.has('r:19990101T000000Z-000000:/gone/'), 'rules of builds not among the newest are removed');
  assert.ok(aws.kvsItems.has(`r:${buildA.id}:/christmas/`), 'rules of recent builds stay for a rollback');
  assert.equal(aws.current('releases/pending/20260102T000000Z-bbbbbb.json'), null, 'the started marker is removed at the end');
  const saved = JSON.parse(aws.body(`releases/${buildB.id}.json`) ?? '');
  assert.equal(saved.files['blog/index.html'].versionId, aws.current('site/blog/index.html')?.versionId, 'an unchanged file keeps its recorded version');

  // The listing reads the summary from object metadata, not whole manifests.
  const state = await target.state();
  assert.deepEqual(
    state.releases.map((r) => [r.id, r.files]),
    [
      [buildB.id, Object.keys(saved.files).length],
      [buildA.id, Object.keys(a.files).length],
    ],
  );

  aws.calls.length = 0;
  await rollback({ target, id: buildA.id, log: quiet });
  for (const [rel, content] of Object.entries(a.files)) assert.equal(aws.body(`site/${rel}`), content, rel);
  assert.equal(aws.current('site/outlet/r/new-range/index.html'), null);
  assert.equal(aws.kvsItems.get('build'), buildA.id);
  const copies = aws.calls.filter(([n]) => n === 'CopyObjectCommand').map(([, i]) => i.Key);
  assert.ok(copies.includes('site/outlet/r/retired/index.html') && !copies.includes('site/blog/index.html'));
  assert.equal(aws.current('site/outlet/r/retired/index.html')?.cacheControl, 'public, max-age=0, s-maxage=60');
  assert.equal(aws.current('site/outlet/r/retired/index.html')?.contentEncoding, 'gzip', 'a restored version keeps its Content-Encoding');
});
