/** Parameter rules of the routes whose paths carry parameters. */
const routes: { pattern: RegExp; valid: RegExp }[] = [
  { pattern: /^\/outlet\/r\/([^/]+)\/$/, valid: /^\/outlet\/r\/[a-z0-9_-]+\/$/ },
  { pattern: /^\/outlet\/section\/([^/]+)\/([^/]+)\/$/, valid: /^\/outlet\/section\/[a-z0-9-]+\/\d{1,9}\/$/ },
  { pattern: /^\/checkout\/complete\/([^/]+)\/$/, valid: /^\/checkout\/complete\/[A-Za-z0-9-]{4,40}\/$/ },
];

/** Whether a path is a known parameterised route with good parameters ('valid'),
 * one with bad parameters ('invalid': route validation failed), or no such route. */
export function validateRoute(pathname: string): 'valid' | 'invalid' | 'unknown' {
  for (const r of routes) {
    if (r.pattern.test(pathname)) return r.valid.test(pathname) ? 'valid' : 'invalid';
  }
  return 'unknown';
}
