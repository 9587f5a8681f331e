import { afterEach, describe, expect, it } from 'vitest';
import { reportError, setReportSink, type ErrorReport } from './report';

describe('reportError', () => {
  let restore: ReturnType<typeof setReportSink> | undefined;
  afterEach(() => {
    if (restore) setReportSink(restore);
  });

  it('sends each report to the sink', () => {
    const got: ErrorReport[] = [];
    restore = setReportSink((r) => got.push(r));
    reportError(new TypeError('boom'), { fatal: true, statusCode: 500, path: '/x/' });
    reportError('Page not found: /nope/', { statusCode: 404 });
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({ name: 'TypeError', message: 'boom', fatal: true, statusCode: 500, path: '/x/' });
    expect(got[1]).toMatchObject({ message: 'Page not found: /nope/', fatal: false, statusCode: 404 });
  });

  it('survives a sink that throws', () => {
    restore = setReportSink(() => {
      throw new Error('sink down');
    });
    expect(() => reportError(new Error('x'))).not.toThrow();
  });
});
