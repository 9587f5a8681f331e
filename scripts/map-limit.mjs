// Runs an async function over a list with at most `limit` calls in flight: enough to keep
// a disk or S3 busy without opening thousands of files or sockets at once.

/** How many reads or uploads the release keeps in flight. */
export const CONCURRENCY = 16;

/** Calls fn(item, index) for every item, `limit` at a time; answers the results in order.
 * The first failure stops new calls and rejects once the calls in flight have settled.
 * onProgress(done) is called after each item. */
export async function mapLimit(items, limit, fn, onProgress) {
  const results = new Array(items.length);
  let next = 0;
  let done = 0;
  let failure = null;
  async function worker() {
    while (failure === null && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
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
