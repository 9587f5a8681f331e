import type { AuditEntry } from '@/lib/admin';
import { actionWords, auditChanges } from '@/lib/audit';
import { formatUkDateTime } from '@/lib/format';

/** Who changed what and when, newest first: each change's fields, before → after. */
export function AuditTrail({ entries, title = 'Changes', headingId = 'audit-trail' }: { entries: AuditEntry[]; title?: string; headingId?: string }) {
  return (
    <section className="audit" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {entries.length === 0 ? (
        <p className="muted">No changes by staff yet.</p>
      ) : (
        <ol className="audit-list">
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              <p className="audit-head">
                <strong>{actionWords(e.action)}</strong> by {e.who.email || e.who.uid},{' '}
                <time dateTime={new Date(e.at).toISOString()}>{formatUkDateTime(e.at)}</time>
              </p>
              <ul className="audit-changes">
                {auditChanges(e).map((c) => (
                  <li key={c.field}>
                    {c.field}: <span className="audit-before">{c.before}</span> → <span className="audit-after">{c.after}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
