import { claimError, reportError, type ReportKind } from './report';

/** The header the CSRF token travels in; configurable at build time. */
export const CSRF_HEADER = process.env.NEXT_PUBLIC_CSRF_HEADER || 'X-CSRF-Token';

/** An API answer that was not 2xx; message is the server's own error text (a whole
 * sentence, shown as sent), problems its field problems by field name, orderId
 * the order a refused order points at (409 "this basket was just ordered: see order …"),
 * code what kind of refusal a program acts on (a 403's csrf_token or cross_site), and
 * answer the whole JSON answer (a catalogue import's 422 lists its file_problems there). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems?: Record<string, string>,
    readonly orderId?: string,
    readonly code?: string,
    answer?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    // Not enumerable: errors of the same refusal compare equal whatever else the answer held.
    Object.defineProperty(this, 'answer', { value: answer, enumerable: false });
  }

  /** The whole JSON answer (a catalogue import's 422 lists its file_problems here). */
  declare readonly answer?: unknown;
}

/** The API's field problems of a failed call, by field name, for the form's fields to
 * show; empty for anything else. Each is a whole sentence naming its field, shown as sent
 * (docs/api.md "Errors"). */
export function fieldProblems(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError) || !err.problems) return {};
  return { ...err.problems };
}

/** What to tell the buyer about a failed call: the API's first field problem, else its
 * message, both whole sentences as sent; fallback for anything that is not an API answer. */
export function apiErrorText(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  const [first] = Object.values(err.problems ?? {});
  return first ?? err.message;
}

/** The page's CSRF token, from <meta name="csrf-token">. */
export function csrfToken(doc: Pick<Document, 'querySelector'> = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
  doc?: Pick<Document, 'querySelector'>;
  /** A body sent as it is, with its own type (a picture), instead of body as JSON. */
  rawBody?: Blob;
  /** The endpoint is CSRF-protected: without a token the call cannot succeed, so a failed
   * token request fails the call, and a 403 for a stale token (code csrf_token: the token
   * expired, the secret was rotated, or another tab replaced the cookie) fetches the token
   * again and repeats the call once. */
  csrf?: boolean;
  /** The kind a failed call is reported as (lib/report.ts); 'api' unless said (the basket's
   * load says 'basket'). */
  reportAs?: ReportKind;
}

type Doc = Pick<Document, 'querySelector'>;

/** Fetches a CSRF token (GET /api/csrf sets its cookie) into the page's meta tag. */
async function loadCsrfToken(fetchImpl: typeof fetch, doc: Doc): Promise<string> {
  const res = await fetchImpl('/api/csrf', { method: 'GET', credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) {
    const err = new ApiError(res.status, 'The shop could not start a secure session: reload the page.');
    reportFailedCall(err, 'GET', '/api/csrf', 'api');
    throw err;
  }
  const { token } = (await res.json()) as { token: string };
  doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.setAttribute('content', token);
  return token;
}

/** The token request in flight for a page: calls made while it is out wait for it, so a
 * page asks for its token once however many calls start together. */
const tokenRequests = new WeakMap<Doc, Promise<string>>();

/** The page's CSRF token: the meta tag's, else one fetched into it (one request per page,
 * shared by every caller; a failed request is forgotten so the next call asks again).
 * The app calls it on load, so the tag is filled before the first API call; fresh asks
 * for a new token even when the tag has one. */
export function ensureCsrfToken(opts: { fetchImpl?: typeof fetch; doc?: Doc; fresh?: boolean } = {}): Promise<string> {
  const { fetchImpl = fetch, doc = document, fresh = false } = opts;
  const have = csrfToken(doc);
  if (have && !fresh) return Promise.resolve(have);
  let pending = tokenRequests.get(doc);
  if (!pending) {
    pending = loadCsrfToken(fetchImpl, doc).finally(() => tokenRequests.delete(doc));
    tokenRequests.set(doc, pending);
  }
  return pending;
}

/** The one function every API call goes through: JSON in and out, the page's CSRF
 * token in CSRF_HEADER on every call (fetched first when the page has none yet), same-origin
 * credentials, and an ApiError for any non-2xx. */
export async function apiFetch<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  return (await answerOf(await request(path, opts, 'application/json'))) as T;
}

/** apiFetch for an answer that is a file (a PDF): the same request, token and errors (a
 * non-2xx answer's JSON is read into the ApiError), and the 2xx body as a Blob whose type
 * is the answer's Content-Type. accept names the type wanted. */
export async function apiFetchBlob(path: string, accept: string, opts: ApiOptions = {}): Promise<Blob> {
  // JSON is accepted too: an error comes back as JSON whatever was asked for.
  return (await request(path, opts, `${accept}, application/json;q=0.5`)).blob();
}

/** Sends a call with the page's CSRF token, repeats a protected call once for a stale
 * token, and answers the 2xx Response with its body unread; anything else is an ApiError. */
async function request(path: string, opts: ApiOptions, accept: string): Promise<Response> {
  const { fetchImpl = fetch, doc = document } = opts;
  let token = '';
  try {
    token = await ensureCsrfToken({ fetchImpl, doc });
  } catch (err) {
    // A read does not need the token (the server checks it only on state-changing
    // calls), so it goes ahead without one; a protected call cannot.
    if (opts.csrf) throw err;
  }
  let res = await send(path, opts, token, accept);
  if (res.status === 403 && opts.csrf && ((await answerOf(res.clone())) as { code?: unknown } | null)?.code === CSRF_STALE) {
    // The token is stale (expired, or signed with a secret since rotated) or another tab
    // replaced the cookie. The CSRF check runs before the handler, so nothing happened:
    // get a new token and repeat the call, once. Any other 403 is final.
    res = await send(path, opts, await ensureCsrfToken({ fetchImpl, doc, fresh: true }), accept);
  }
  if (!res.ok) {
    const answer = await answerOf(res);
    const e = (answer ?? {}) as { error?: string; problems?: unknown; order_id?: unknown; code?: unknown };
    const orderId = typeof e.order_id === 'string' && e.order_id ? e.order_id : undefined;
    const code = typeof e.code === 'string' && e.code ? e.code : undefined;
    const problems = e.problems && typeof e.problems === 'object' && !Array.isArray(e.problems) ? (e.problems as Record<string, string>) : undefined;
    const err = new ApiError(res.status, e.error ?? `The request failed with status ${res.status}: please try again.`, problems, orderId, code, answer);
    reportFailedCall(err, opts.method ?? 'POST', path, opts.reportAs ?? 'api');
    throw err;
  }
  return res;
}

/** Whether a non-2xx answer is one the page expects and shows, not an app error
 * (docs/site-shell.md "Errors"): 400 with field problems (a form's refusal), 401 (signed
 * out or the sign-in expired), 403 (not staff, or a CSRF token that could not be renewed),
 * 404 (no such order, product or account), 409 (the record changed, the basket was
 * ordered), 422 (a catalogue import's file problems), 429 (the shop asked the caller to
 * slow down) and 501 (this stack cannot publish). Everything else, 5xx above all, is
 * reported. */
export function isExpectedFailure(status: number, problems?: Record<string, string>): boolean {
  if (status === 400) return problems !== undefined && Object.keys(problems).length > 0;
  return [401, 403, 404, 409, 422, 429, 501].includes(status);
}

/** Reports a failed call with its status, unless the page expects it; either way the
 * caller's own report of the same error adds nothing. */
function reportFailedCall(err: ApiError, method: string, path: string, kind: ReportKind): void {
  if (isExpectedFailure(err.status, err.problems)) {
    claimError(err);
    return;
  }
  const endpoint = path.split(/[?#]/)[0];
  const report = new ApiError(err.status, `${method} ${endpoint} answered ${err.status}: ${err.message}`);
  reportError(report, { kind, statusCode: err.status });
  claimError(err);
}

/** The code of the API's 403 for a missing, stale or foreign CSRF token (docs/api.md). */
export const CSRF_STALE = 'csrf_token';

/** An answer's JSON body; null when it is empty or not JSON. */
async function answerOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null; // not JSON: the caller words the error from the status
  }
}

function send(path: string, opts: ApiOptions, token: string, accept: string): Promise<Response> {
  const { method = 'POST', body, rawBody, headers = {}, signal, fetchImpl = fetch } = opts;
  const h: Record<string, string> = { Accept: accept, ...headers };
  if (token) h[CSRF_HEADER] = token;
  if (rawBody !== undefined) h['Content-Type'] = rawBody.type || 'application/octet-stream';
  else if (body !== undefined) h['Content-Type'] = 'application/json';
  return fetchImpl(path, {
    method,
    headers: h,
    credentials: 'same-origin',
    ...(rawBody !== undefined ? { body: rawBody } : body !== undefined && { body: JSON.stringify(body) }),
    ...(signal && { signal }),
  });
}
