import { formatUkDateTime } from '@/lib/format';
import { KIND_LABELS, type AppErrorGroup } from '@/lib/health';

/** The app errors the site reported (POST /api/errors), as the server groups them: one row
 * per kind, message and path, most recently seen first, with how many and when. */
export function AppErrorsTable({ groups }: { groups: AppErrorGroup[] }) {
  return (
    <section aria-labelledby="health-errors">
      <h2 id="health-errors">App errors</h2>
      {groups.length === 0 ? (
        <p>No app errors reported in the last 30 days.</p>
      ) : (
        <table className="basket-table admin-table health-errors">
          <caption className="sr-only">App errors reported by buyers’ browsers, most recently seen first</caption>
          <thead>
            <tr>
              <th scope="col">Message</th>
              <th scope="col">Kind</th>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Count</th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
              <th scope="col">Build</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={`${g.kind}|${g.name}|${g.message}|${g.path}`} data-kind={g.kind}>
                <th scope="row" className="health-message">
                  <span className="muted">{g.name}:</span> {g.message}
                </th>
                <td data-label="Kind">{KIND_LABELS[g.kind] ?? g.kind}</td>
                <td className="health-path" data-label="Path">
                  {g.path}
                </td>
                <td className="health-status" data-label="Status">
                  {g.status || '—'}
                </td>
                <td className="health-count" data-label="Count">
                  {g.count}
                </td>
                <td data-label="First seen">{formatUkDateTime(g.first_seen)}</td>
                <td data-label="Last seen">{formatUkDateTime(g.last_seen)}</td>
                <td data-label="Build">{g.build || <span className="muted">unknown</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
