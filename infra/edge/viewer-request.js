// CloudFront Function (cloudfront-js-2.0), viewer request, on every site behaviour.
// The routing the Go local edge (functions/internal/edge) does, in the same order:
//   1. a path with a "." or ".." segment, plain or percent-encoded (/.%2e/x), is refused
//      (400), and so is one that could turn a redirect off the site: a leading "//", a
//      backslash, a control character, or their percent-encoded forms (UNSAFE_PATH, the
//      same pattern as the Go edge's unsafePath);
//   2. a route rule of the current build redirects (a site-path target keeps the query);
//   3. a directory-like path without its trailing slash is redirected to it (query kept);
//   4. /checkout/complete/{orderId}/ is served by the one exported shell page, and any
//      other path ending in "/" by its index.html.
// Route rules live in the KeyValueStore the release writes: key "build" holds the
// current build id, key "r:{buildId}:{source}" a rule {"target", "status"}. Files (paths
// with an extension) never look rules up. builds/edge-test-vectors.json drives this
// function's tests (infra/test/viewer-request.test.ts) and the Go edge's.
import cf from 'cloudfront';

const kvs = cf.kvs();

const PAGE_CACHE = 'public, max-age=0, s-maxage=60';
const UNSAFE_PATH = /^\/\/|\\|[\x00-\x1f\x7f]|%5c|%[01][0-9a-f]|%7f|^\/%2f/i;
const ORDER_COMPLETE = /^\/checkout\/complete\/[A-Za-z0-9-]{1,40}\/$/;
const ORDER_COMPLETE_SHELL = '/checkout/complete/order/index.html';

function hasExtension(uri) {
  return uri.slice(uri.lastIndexOf('/') + 1).indexOf('.') !== -1;
}

// CloudFront hands the function the path as the viewer sent it, not decoded as the Go edge
// sees it, so a dot written as %2e (/.%2e/x, /%2e%2e/x) counts as the dot it stands for.
function hasDotSegment(uri) {
  const segments = uri.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i].replace(/%2e/gi, '.');
    if (segment === '.' || segment === '..') return true;
  }
  return false;
}

// The query string as the viewer sent it, rebuilt from CloudFront's parsed form.
function queryString(qs) {
  const parts = [];
  for (const name in qs) {
    const entry = qs[name];
    const values = entry.multiValue ? entry.multiValue : [entry];
    for (let i = 0; i < values.length; i++) {
      parts.push(values[i].value === '' ? name : name + '=' + values[i].value);
    }
  }
  return parts.join('&');
}

function redirect(status, location) {
  return {
    statusCode: status,
    statusDescription: status === 301 ? 'Moved Permanently' : status === 308 ? 'Permanent Redirect' : status === 307 ? 'Temporary Redirect' : 'Found',
    headers: { location: { value: location }, 'cache-control': { value: PAGE_CACHE } },
  };
}

function withQuery(target, query) {
  return query === '' || target.indexOf('?') !== -1 ? target : target + '?' + query;
}

async function routeRule(path) {
  try {
    const build = await kvs.get('build');
    return await kvs.get('r:' + build + ':' + path, { format: 'json' });
  } catch (e) {
    return null; // no current build, or no rule for this path
  }
}

async function handler(event) {
  const request = event.request;
  const uri = request.uri;
  if (uri.charAt(0) !== '/' || hasDotSegment(uri) || UNSAFE_PATH.test(uri)) {
    return { statusCode: 400, statusDescription: 'Bad Request' };
  }
  const isFile = hasExtension(uri);
  if (!isFile) {
    const path = uri.charAt(uri.length - 1) === '/' ? uri : uri + '/';
    const rule = await routeRule(path);
    if (rule && rule.target) {
      const internal = rule.target.charAt(0) === '/';
      return redirect(rule.status || 301, internal ? withQuery(rule.target, queryString(request.querystring)) : rule.target);
    }
    if (path !== uri) return redirect(301, withQuery(path, queryString(request.querystring)));
  }
  if (ORDER_COMPLETE.test(uri)) {
    request.uri = ORDER_COMPLETE_SHELL;
  } else if (uri.charAt(uri.length - 1) === '/') {
    request.uri = uri + 'index.html';
  }
  return request;
}
