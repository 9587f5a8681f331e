/** One recorded app error. */
export interface ErrorReport {
  message: string;
  name: string;
  fatal: boolean;
  statusCode?: number;
  path?: string;
  context?: Record<string, string | number | boolean>;
  at: string;
}

/** Where reports go; console locally, swappable for a real collector. */
export type ReportSink = (r: ErrorReport) => void;

const consoleSink: ReportSink = (r) => {
  (r.fatal ? console.error : console.warn)(`[app error] ${r.name}: ${r.message}`, r);
};

let sink: ReportSink = consoleSink;

/** Replaces the sink; answers the previous one (tests restore it). */
export function setReportSink(next: ReportSink): ReportSink {
  const prev = sink;
  sink = next;
  return prev;
}

/** Records an app error. Never throws: reporting must not break the page. */
export function reportError(error: unknown, opts: { fatal?: boolean; statusCode?: number; path?: string; context?: ErrorReport['context'] } = {}): ErrorReport {
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'Unknown error');
  const r: ErrorReport = {
    message: e.message,
    name: e.name,
    fatal: opts.fatal ?? false,
    at: new Date().toISOString(),
    ...(opts.statusCode !== undefined && { statusCode: opts.statusCode }),
    ...(opts.path !== undefined && { path: opts.path }),
    ...(opts.context !== undefined && { context: opts.context }),
  };
  try {
    sink(r);
  } catch {
    /* a broken sink must not take the page down */
  }
  return r;
}
