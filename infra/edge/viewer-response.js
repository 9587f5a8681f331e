// CloudFront Function (cloudfront-js-2.0), viewer response, on the default (pages)
// behaviour. A page asked for as a listing's filtered view (issue 39: a query string
// holding any of FILTERED_VIEW_KEYS, whatever the value; the page number alone is not
// one) is answered with X-Robots-Tag: noindex, so crawlers index only the unfiltered page
// that the view's canonical link names. It runs on every answer, cached or not: the page
// cache ignores the query string, so one cached copy serves both kinds of request and
// the header cannot be cached with it. A page is a path ending in "/", or the index.html
// the viewer-request function rewrote it to; files (other extensions) are never marked.
// The Go local edge does the same (functions/internal/edge/robots.go, the same key list);
// builds/edge-test-vectors.json's filteredViewKeys and each vector's robots drive both
// edges' tests (infra/test/viewer-response.test.ts).

const FILTERED_VIEW_KEYS = ['sort', 'occasion', 'recipient', 'age', 'style', 'band', 'pack', 'new', 'min', 'max', 'stock'];

function isPage(uri) {
  return uri.charAt(uri.length - 1) === '/' || uri.slice(-11) === '/index.html';
}

function isFilteredView(qs) {
  for (let i = 0; i < FILTERED_VIEW_KEYS.length; i++) {
    if (Object.prototype.hasOwnProperty.call(qs, FILTERED_VIEW_KEYS[i])) return true;
  }
  return false;
}

async function handler(event) {
  const response = event.response;
  const request = event.request;
  if (isPage(request.uri) && isFilteredView(request.querystring || {})) {
    response.headers['x-robots-tag'] = { value: 'noindex' };
  }
  return response;
}
