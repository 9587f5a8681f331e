import { isCrawler } from './crawler';
import { deviceFlags, readDevice } from './device';

/** What kind of app error a report is (POST /api/errors; docs/site-shell.md "Errors"). */
export type ReportKind = 'chunk' | 'fatal' | 'unhandled' | 'hydration' | 'api' | 'basket' | 'other';

/** One recorded app error. */
export interface ErrorReport {
  kind: ReportKind;
  message: string;
  name: string;
  fatal: boolean;
  statusCode?: number;
  path?: string;
  context?: Record<string, string | number | boolean>;
  /** When it happened, Unix ms. */
  at: number;
}

/** Where reports go: the collector that sends them to POST /api/errors, and the console;
 * tests swap in their own. */
export type ReportSink = (r: ErrorReport) => void;

// The wire shape of POST /api/errors (the contract of issue 34). Declared here, in one
// place, until the generated types in api-types.ts carry the Go request type.

/** The device class a report carries. */
export type ReportAgent = 'phone' | 'tablet' | 'desktop';

/** One report as POST /api/errors takes it. */
export interface WireReport {
  kind: ReportKind;
  name: string;
  message: string;
  path: string;
  status?: number;
  count: number;
  at?: number;
}

/** The body of POST /api/errors. */
export interface ErrorReportBatch {
  build: string;
  agent: ReportAgent;
  user?: string;
  reports: WireReport[];
}

/** The endpoint's bounds, so that a report is never refused for its length. */
export const REPORT_LIMITS = { perPageView: 10, message: 300, name: 60, path: 200, build: 64, count: 100, bodyBytes: 16 * 1024 } as const;

/** The endpoint the collector sends to. */
export const REPORT_URL = '/api/errors';

/** Control characters (C0, DEL and C1); line breaks and tabs become spaces first. */
const controls = /[\u0000-\u001f\u007f-\u009f]/g;

/** Text as the endpoint takes it: whitespace runs (line breaks, tabs) as one space, no
 * control characters, at most max characters (whole code points, so no half of a pair). */
export function boundedText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').replace(controls, '').trim();
  const chars = Array.from(clean);
  return chars.length <= max ? clean : chars.slice(0, max).join('');
}

/** A path as the endpoint takes it: the pathname only (no query string or hash), starting
 * with '/', at most 200 characters. */
export function boundedPath(path: string): string {
  const cut = path.search(/[?#]/);
  const p = boundedText(cut === -1 ? path : path.slice(0, cut), REPORT_LIMITS.path);
  return p.startsWith('/') ? p : boundedText(`/${p}`, REPORT_LIMITS.path);
}

/** A build id as the endpoint takes it: only [A-Za-z0-9._-], at most 64; '' when unknown. */
export const boundedBuild = (id: string | undefined): string => (id && /^[A-Za-z0-9._-]{1,64}$/.test(id) ? id : '');

/** The device class of lib/device.ts's flags. */
export function agentOf(flags: { mobile: boolean; tablet: boolean }): ReportAgent {
  if (flags.tablet) return 'tablet';
  return flags.mobile ? 'phone' : 'desktop';
}

/** SHA-256 of a uid as 64 lowercase hex (what a report says of a signed-in buyer). */
export async function hashUid(uid: string, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<string> {
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(uid));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What the collector needs from the page; tests give their own. */
export interface CollectorEnv {
  /** Whether the visitor is a crawler: then nothing is sent. */
  crawler: boolean;
  agent: ReportAgent;
  /** The page's build id (as the page learns it: <html data-release>), read when sending. */
  build(): string;
  /** The signed-in buyer's uid hash, or undefined, read when sending. */
  user(): string | undefined;
  /** Sends a body; false when the browser would not queue it. */
  send(body: string): boolean;
}

/** How long a network failure is held before it counts (NETWORK_HOLD_MS): a page that is
 * going cancels its calls in flight, each a "Failed to fetch" just before pagehide, and
 * those are the buyer leaving, not an app error. */
export const NETWORK_HOLD_MS = 1500;

/** Whether an error is fetch's own network failure (no answer at all), in the words of
 * Chromium, Firefox and Safari. */
export function isNetworkFailure(r: Pick<ErrorReport, 'name' | 'message'>): boolean {
  return r.name === 'TypeError' && /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/.test(r.message);
}

/** Collects one page view's reports (a full page load; client navigations keep it) and
 * sends them in batches: a duplicate of a report not yet sent (same kind, name, message
 * and path) adds to its count; at most 10 reports leave a page view; a batch goes when it
 * holds 10, and whatever is waiting goes on flush (the page calls it when it is hidden).
 * A network failure is held NETWORK_HOLD_MS first: one the page's going cancelled (a flush
 * comes within that time) is dropped. */
export class ReportCollector {
  private waiting: WireReport[] = [];
  private held: { r: ErrorReport; timer: ReturnType<typeof setTimeout> }[] = [];
  private taken = 0;

  constructor(private readonly env: CollectorEnv) {}

  /** Adds a report; answers whether it was kept (false for a crawler or past the cap; a
   * network failure is kept on hold). */
  add(r: ErrorReport): boolean {
    if (this.env.crawler) return false;
    if (isNetworkFailure(r)) {
      const held = {
        r,
        timer: setTimeout(() => {
          this.held = this.held.filter((h) => h !== held);
          this.queue(r);
        }, NETWORK_HOLD_MS),
      };
      this.held.push(held);
      return true;
    }
    return this.queue(r);
  }

  /** Queues a report for the next batch (see add). */
  private queue(r: ErrorReport): boolean {
    const wire = toWire(r);
    const same = this.waiting.find((w) => w.kind === wire.kind && w.name === wire.name && w.message === wire.message && w.path === wire.path);
    if (same) {
      same.count = Math.min(same.count + 1, REPORT_LIMITS.count);
      return true;
    }
    if (this.taken >= REPORT_LIMITS.perPageView) return false;
    this.taken++;
    this.waiting.push(wire);
    if (this.waiting.length >= REPORT_LIMITS.perPageView) this.flush();
    return true;
  }

  /** Sends what is waiting, if anything, and drops the network failures on hold (the page
   * is going, or hidden: its calls were cancelled, not failed); never throws. */
  flush(): void {
    for (const h of this.held) clearTimeout(h.timer);
    this.held = [];
    if (this.waiting.length === 0) return;
    const reports = this.waiting;
    this.waiting = [];
    this.send(reports);
  }

  /** Sends reports in one body, or in halves while the body is over the endpoint's 16 KiB
   * (ten reports of long text outside ASCII can be; one never is). */
  private send(reports: WireReport[]): void {
    const user = this.env.user();
    const batch: ErrorReportBatch = { build: boundedBuild(this.env.build()), agent: this.env.agent, ...(user && { user }), reports };
    const body = JSON.stringify(batch);
    if (reports.length > 1 && new TextEncoder().encode(body).length > REPORT_LIMITS.bodyBytes) {
      const half = Math.ceil(reports.length / 2);
      this.send(reports.slice(0, half));
      this.send(reports.slice(half));
      return;
    }
    try {
      this.env.send(body);
    } catch {
      /* the page is going: a report that cannot leave is lost, never an error of its own */
    }
  }

  /** How many reports are waiting to be sent. */
  pending(): number {
    return this.waiting.length;
  }
}

function toWire(r: ErrorReport): WireReport {
  const name = boundedText(r.name, REPORT_LIMITS.name) || 'Error';
  const message = boundedText(r.message, REPORT_LIMITS.message) || name;
  const status = r.statusCode !== undefined && Number.isInteger(r.statusCode) && r.statusCode >= 100 && r.statusCode <= 599 ? r.statusCode : undefined;
  return {
    kind: r.kind,
    name,
    message,
    path: boundedPath(r.path ?? '/'),
    ...(status !== undefined && { status }),
    count: 1,
    at: r.at,
  };
}

/** Sends a batch as the page goes: sendBeacon with a JSON Blob, else a keepalive fetch. */
function beacon(body: string): boolean {
  const blob = new Blob([body], { type: 'application/json' });
  if (navigator.sendBeacon?.(REPORT_URL, blob)) return true;
  void fetch(REPORT_URL, { method: 'POST', body: blob, keepalive: true, credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } }).catch(
    () => undefined,
  );
  return true;
}

let uidHash: string | undefined;
let hashFor = '';

/** Tells the reporter who is signed in (the account store calls it): the uid's SHA-256 is
 * worked out now, since a page that is going cannot wait for it. Never the email or a token. */
export function setReportUser(uid: string | null): void {
  if (uid === hashFor || (!uid && !hashFor)) return;
  hashFor = uid ?? '';
  uidHash = undefined;
  if (!uid || typeof globalThis.crypto?.subtle === 'undefined') return;
  hashUid(uid)
    .then((h) => {
      if (hashFor === uid) uidHash = h;
    })
    .catch(() => undefined);
}

let pageCollector: ReportCollector | null = null;

/** This page view's collector, made on the first report, with the page's flush on
 * pagehide and on the page becoming hidden. */
function browserCollector(): ReportCollector | null {
  if (typeof window === 'undefined') return null;
  if (pageCollector) return pageCollector;
  const c = new ReportCollector({
    crawler: isCrawler(navigator.userAgent),
    agent: agentOf(deviceFlags(readDevice(window))),
    build: () => document.documentElement.dataset.release ?? '',
    user: () => uidHash,
    send: beacon,
  });
  watchPageHide(window, () => c.flush());
  pageCollector = c;
  return c;
}

/** Calls flush when the page is hidden or unloaded (pagehide, and visibilitychange to
 * hidden: a phone's tab may be killed without a pagehide). */
export function watchPageHide(win: Pick<Window, 'addEventListener' | 'document'>, flush: () => void): void {
  win.addEventListener('pagehide', flush);
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'hidden') flush();
  });
}

/** The console line of a report, in every build: a developer sees it at once, and the
 * end-to-end tests (which run the production build) watch for it. */
const consoleSink: ReportSink = (r) => {
  (r.fatal ? console.error : console.warn)(`[app error] ${r.name}: ${r.message}`, r);
};

const defaultSink: ReportSink = (r) => {
  consoleSink(r);
  browserCollector()?.add(r);
};

let sink: ReportSink = defaultSink;

/** Replaces the sink; answers the previous one (tests restore it). */
export function setReportSink(next: ReportSink): ReportSink {
  const prev = sink;
  sink = next;
  return prev;
}

/** Errors already reported, or already judged not worth a report (lib/api.ts's expected
 * answers): a caller that reports the same error again adds nothing. */
const seen = new WeakSet<object>();

/** Marks an error as dealt with, so later reportError calls for it do nothing. */
export function claimError(error: unknown): void {
  if (error && typeof error === 'object') seen.add(error);
}

export interface ReportOptions {
  /** 'other' unless said; fatal reports are 'fatal'. */
  kind?: ReportKind;
  fatal?: boolean;
  statusCode?: number;
  /** The page's path; window.location.pathname unless said. */
  path?: string;
  context?: ErrorReport['context'];
}

/** Records an app error: once per error object (a failed API call is reported by
 * lib/api.ts with its status, so the caller's own report of it adds nothing). Never
 * throws: reporting must not break the page. Answers the report, or null when the error
 * had been reported already. */
export function reportError(error: unknown, opts: ReportOptions = {}): ErrorReport | null {
  if (error && typeof error === 'object') {
    if (seen.has(error)) return null;
    seen.add(error);
  }
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'Unknown error');
  const fatal = opts.fatal ?? false;
  const path = opts.path ?? (typeof window === 'undefined' ? undefined : window.location.pathname);
  const r: ErrorReport = {
    kind: opts.kind ?? (fatal ? 'fatal' : 'other'),
    message: e.message,
    name: e.name,
    fatal,
    at: Date.now(),
    ...(opts.statusCode !== undefined && { statusCode: opts.statusCode }),
    ...(path !== undefined && { path }),
    ...(opts.context !== undefined && { context: opts.context }),
  };
  try {
    sink(r);
  } catch {
    /* a broken sink must not take the page down */
  }
  return r;
}
