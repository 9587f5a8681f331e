import type { Unread } from '@/lib/quick-order';

/** What reading a paste or a file came to. */
export type ReadReport = { ok: boolean; text?: string; put?: { added: number; merged: number }; unread: Unread[]; unreadNote?: string };

const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

/** "30 lines put on the rows to check", and the lines that could not be read, each with why. */
export function ReadOutcome({ report }: { report: ReadReport | null }) {
  if (!report) return null;
  const put = report.put;
  const parts = put
    ? [put.added > 0 && `${lines(put.added)} put on the rows`, put.merged > 0 && `${lines(put.merged)} added to rows already there`].filter(Boolean)
    : [];
  const said = report.text ?? (parts.length > 0 ? `${parts.join(', ')}.` : '');
  return (
    <div className={report.ok ? 'form-ok' : 'form-error'} role={report.ok ? 'status' : 'alert'}>
      {said && <p>{said}</p>}
      {report.unread.length > 0 && (
        <>
          <p>
            {report.unread.length === 1 ? 'One line could not be read' : `${report.unread.length} lines could not be read`}
            {report.unreadNote ?? ''}:
          </p>
          <ul>
            {report.unread.map((u) => (
              <li key={u.line}>{u.message}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
