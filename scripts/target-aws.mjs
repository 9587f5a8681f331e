// @ts-check
// The aws target: the site bucket (versioning on) behind CloudFront, and the CloudFront
// KeyValueStore the CloudFront function reads route rules from.
//
// UNTESTED AGAINST AWS: there is no AWS account where this was written. It is kept thin on
// purpose: the order, the diffing and the record keeping are the shared plan in
// publish.mjs (tested with the dir target); this file only maps each step onto one AWS
// call. target-aws.test.mjs checks those calls against in-memory stand-ins of S3, the KVS
// and CloudFront, which says nothing about IAM, SigV4A or the services' own behaviour.
// Try it first against a staging stack with --dry-run, then for real.
//
//   s3://BUCKET/site/…               the site (CloudFront's origin path is /site); a
//                                    compressible file is stored gzip-compressed under its
//                                    own key with Content-Encoding: gzip, which S3 and
//                                    CloudFront serve as stored
//   s3://BUCKET/releases/{id}.json   manifests with each file's VersionId (not reachable
//                                    through CloudFront); rollback copies those versions back
//   KVS  build = current build id;  r:{buildId}:{source} = {"target":…,"status":…}
//
// The SDK is imported here and only here (publish.mjs loads this file lazily), so dry-runs
// and the dir target need none of it. The KeyValueStore API is signed with SigV4A, which
// the SDK only does once @aws-sdk/signature-v4a has been imported.
import { targetState } from './target-state.mjs';
import { latestPath, sha256 } from './export-manifest.mjs';
import { CONCURRENCY, mapLimit } from './map-limit.mjs';

const sitePrefix = 'site/';
/** UpdateKeys takes at most this many puts and deletes per call. */
const KVS_BATCH = 50;
/** How long to wait for a CloudFront invalidation (they usually take a minute or two). */
const INVALIDATION_WAIT_S = 1800;

/** @typedef {import('./target-state.mjs').Target} Target */
/** @typedef {import('./target-state.mjs').ReleaseRecord} ReleaseRecord */

/** The list in slices of at most size.
 * @template T
 * @param {T[]} list
 * @param {number} size
 * @returns {T[][]} */
const chunks = (list, size) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
const hexToBase64 = (/** @type {string} */ hex) => Buffer.from(hex, 'hex').toString('base64');
/** A CopySource names the key URL-encoded, segment by segment.
 * @param {string} bucket
 * @param {string} key
 * @param {string} versionId */
const copySource = (bucket, key, versionId) => `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}?versionId=${encodeURIComponent(versionId)}`;

/** The target over the SDK clients; `clients` ({ s3, cloudfront, kvs }) replaces them in
 * tests, which answer the calls from memory.
 * @param {import('./publish.mjs').AwsConfig} config
 * @param {{ s3?: import('@aws-sdk/client-s3').S3Client, cloudfront?: import('@aws-sdk/client-cloudfront').CloudFrontClient, kvs?: import('@aws-sdk/client-cloudfront-keyvaluestore').CloudFrontKeyValueStoreClient }} [clients]
 * @returns {Promise<Target>} */
export async function createAwsTarget({ bucket, distributionId, kvsArn, region }, clients = {}) {
  const s3sdk = await import('@aws-sdk/client-s3');
  const cfsdk = await import('@aws-sdk/client-cloudfront');
  await import('@aws-sdk/signature-v4a');
  const kvssdk = await import('@aws-sdk/client-cloudfront-keyvaluestore');
  const s3 = clients.s3 ?? new s3sdk.S3Client({ region });
  const cloudfront = clients.cloudfront ?? new cfsdk.CloudFrontClient({ region });
  const kvs = clients.kvs ?? new kvssdk.CloudFrontKeyValueStoreClient({ region });

  /** The JSON object at key, or null when there is none.
   * @param {string} key
   * @returns {Promise<any>} */
  async function getJson(key) {
    try {
      const res = await s3.send(new s3sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!res.Body) throw new Error('the answer has no body');
      return JSON.parse(await res.Body.transformToString());
    } catch (err) {
      if (err.name === 'NoSuchKey') return null;
      throw new Error(`reading s3://${bucket}/${key}: ${err.message}`);
    }
  }

  /** Every key under prefix (not below the next delimiter, when one is given).
   * @param {string} prefix
   * @param {string} [delimiter]
   * @returns {Promise<string[]>} */
  async function listKeys(prefix, delimiter) {
    /** @type {string[]} */
    const keys = [];
    for await (const page of s3sdk.paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix, Delimiter: delimiter })) {
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    }
    return keys;
  }

  /** @param {string} key @param {ReleaseRecord} record */
  async function putJson(key, record) {
    await s3.send(
      new s3sdk.PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: JSON.stringify(record),
        ContentType: 'application/json; charset=utf-8',
        // Summary for --list-builds without downloading every manifest.
        Metadata: { 'build-timestamp': String(record.timestamp), files: String(Object.keys(record.files).length) },
      }),
    );
  }

  /** @param {string[]} keys */
  async function deleteKeys(keys) {
    for (const batch of chunks(keys, 1000)) {
      const res = await s3.send(new s3sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      const [first] = res.Errors ?? [];
      if (first) throw new Error(`deleting from s3://${bucket}: ${first.Key}: ${first.Message}`);
    }
  }

  async function kvsEtag() {
    return (await kvs.send(new kvssdk.DescribeKeyValueStoreCommand({ KvsARN: kvsArn }))).ETag;
  }

  /** Applies puts then deletes in calls of at most 50, each with the ETag the last left
   * (starting from etag, else the store's current one); answers the last ETag.
   * @param {{ key: string, value: string }[]} puts
   * @param {string[]} deletes
   * @param {string} [etag]
   * @returns {Promise<string | undefined>} */
  async function updateKvs(puts, deletes, etag) {
    etag ??= await kvsEtag();
    const calls = [
      ...chunks(puts, KVS_BATCH).map((b) => ({ Puts: b.map(({ key, value }) => ({ Key: key, Value: value })) })),
      ...chunks(deletes, KVS_BATCH).map((b) => ({ Deletes: b.map((Key) => ({ Key })) })),
    ];
    for (const change of calls) {
      etag = (await kvs.send(new kvssdk.UpdateKeysCommand({ KvsARN: kvsArn, IfMatch: etag, ...change }))).ETag;
    }
    return etag;
  }

  return {
    name: `aws:s3://${bucket}`,

    edge: {
      async switchTo(id, rules) {
        const etag = await updateKvs(rules, []);
        await updateKvs([{ key: 'build', value: id }], [], etag); // last, in its own call
      },
      async invalidate(paths) {
        const res = await cloudfront.send(
          new cfsdk.CreateInvalidationCommand({
            DistributionId: distributionId,
            InvalidationBatch: { CallerReference: `release-${Date.now()}`, Paths: { Quantity: paths.length, Items: paths } },
          }),
        );
        await cfsdk.waitUntilInvalidationCompleted(
          { client: cloudfront, maxWaitTime: INVALIDATION_WAIT_S },
          { DistributionId: distributionId, Id: res.Invalidation?.Id },
        );
      },
      async prune(keepIds) {
        const keep = new Set(keepIds);
        /** @type {string[]} */
        const stale = [];
        for await (const page of kvssdk.paginateListKeys({ client: kvs }, { KvsARN: kvsArn })) {
          for (const { Key } of page.Items ?? []) {
            const m = Key === undefined ? null : /^r:([^:]+):/.exec(Key);
            if (Key && m?.[1] && !keep.has(m[1])) stale.push(Key);
          }
        }
        if (stale.length) await updateKvs([], stale);
        return stale.length;
      },
    },

    async state() {
      const latest = await getJson(sitePrefix + latestPath);
      const releaseKeys = (await listKeys('releases/', '/')).filter((k) => k.endsWith('.json'));
      const releases = (
        await mapLimit(releaseKeys, CONCURRENCY, async (Key) => {
          const head = await s3.send(new s3sdk.HeadObjectCommand({ Bucket: bucket, Key }));
          return {
            id: Key.slice('releases/'.length, -'.json'.length),
            timestamp: Number(head.Metadata?.['build-timestamp']),
            files: Number(head.Metadata?.files),
          };
        })
      ).sort((a, b) => b.timestamp - a.timestamp);
      return targetState({
        latestId: latest?.id,
        saved: latest?.id ? await getJson(`releases/${latest.id}.json`) : null,
        pending: (await mapLimit(await listKeys('releases/pending/'), 4, getJson)).filter(Boolean),
        releases,
        hashed: new Set((await listKeys(`${sitePrefix}_next/static/`)).map((k) => k.slice(sitePrefix.length))),
        noLatestNote: `s3://${bucket}/${sitePrefix} has no ${latestPath}: every file is uploaded`,
      });
    },

    async readRelease(id) {
      const record = await getJson(`releases/${id}.json`);
      if (!record) throw new Error(`s3://${bucket} has no manifest of build ${id}`);
      return record;
    },

    async put(rel, body, entry) {
      // body is the file as stored: its gzip when entry.contentEncoding says so (publish.mjs),
      // whose hash is not the manifest's (that is of the raw bytes).
      const res = await s3.send(
        new s3sdk.PutObjectCommand({
          Bucket: bucket,
          Key: sitePrefix + rel,
          Body: body,
          CacheControl: entry.cacheControl,
          ContentType: entry.contentType,
          ...(entry.contentEncoding && { ContentEncoding: entry.contentEncoding }),
          // S3 refuses the upload if the bytes arrive changed
          ChecksumSHA256: hexToBase64(entry.contentEncoding ? sha256(body) : entry.sha256),
        }),
      );
      return res.VersionId;
    },

    async restore(rel, entry) {
      if (!entry.versionId) throw new Error(`${rel} has no S3 version recorded to restore`);
      await s3.send(
        new s3sdk.CopyObjectCommand({
          Bucket: bucket,
          Key: sitePrefix + rel,
          CopySource: copySource(bucket, sitePrefix + rel, entry.versionId),
          // REPLACE sets every header again: the version's encoding is the entry's (none in
          // a record saved before gzip storage, whose versions are raw).
          MetadataDirective: 'REPLACE',
          CacheControl: entry.cacheControl,
          ContentType: entry.contentType,
          ...(entry.contentEncoding && { ContentEncoding: entry.contentEncoding }),
        }),
      );
    },

    async missingHistory(entries) {
      // Only what the manifest recorded can be checked without a request per file; a
      // version the bucket's lifecycle rules expired makes CopyObject fail, which stops
      // the rollback before latest.json changes.
      return entries.filter(([, e]) => !e.versionId).map(([p]) => p);
    },

    remove: (rels) => deleteKeys(rels.map((r) => sitePrefix + r)),
    markStarted: (record) => putJson(`releases/pending/${record.id}.json`, record),
    saveRelease: (record) => putJson(`releases/${record.id}.json`, record),
    clearStarted: (ids) => deleteKeys(ids.map((id) => `releases/pending/${id}.json`)),
    // Old object versions are the bucket's lifecycle rules' business (infra/).
    prune: async () => '',
  };
}
