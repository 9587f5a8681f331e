// @ts-check
// Runs an async function over a list with at most `limit` calls in flight: enough to keep
// a disk or S3 busy without opening thousands of files or sockets at once.

/** How many reads or uploads the release keeps in flight. */
export const CONCURRENCY = 16;

/** Calls fn(item, index) for every item, `limit` at a time; answers the results in order.
 * The first failure stops new calls and rejects once the calls in flight have settled.
 * onProgress(done) is called after each item.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} fn
 * @param {(done: number) => void} [onProgress]
 * @returns {Promise<R[]>} */
export async function mapLimit(items, limit, fn, onProgress) {
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  let done = 0;
  /** @type {unknown} */
  let failure = null;
  async function worker() {
    while (failure === null && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(/** @type {T} */ (items[i]), i);
      } catch (err) {
        failure ??= err;
        return;
      }
      done++;
      onProgress?.(done);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure;
  return results;
}
