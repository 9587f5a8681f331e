'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminHealth } from '@/lib/admin';
import { apiErrorText } from '@/lib/api';
import { formatUkDateTime } from '@/lib/format';
import { lastPublish, type HealthAnswer, type LastPublish } from '@/lib/health';
import { AppErrorsTable } from './app-errors-table';
import { HealthBacklogs } from './health-backlogs';

type Loaded = { health: HealthAnswer; publish: LastPublish | null };
type State = { status: 'loading' } | { status: 'failed'; text: string } | { status: 'ready'; data: Loaded; refreshing: boolean };

/** /admin/health/: how the running shop is (docs/back-office.md "Health"): the app errors
 * the site reported, the email outbox, the orders waiting, the last catalogue import and
 * the last publish. Refresh reads it all again; nothing here changes anything. */
export function HealthAdmin() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const live = useRef<AbortController | null>(null);

  const load = useCallback(() => {
    live.current?.abort();
    const ctl = new AbortController();
    live.current = ctl;
    setState((s) => (s.status === 'ready' ? { ...s, refreshing: true } : { status: 'loading' }));
    // The publish is read from the site itself; a failure there leaves the rest standing.
    Promise.all([adminHealth(ctl.signal), lastPublish().catch(() => null)])
      .then(([health, publish]) => !ctl.signal.aborted && setState({ status: 'ready', data: { health, publish }, refreshing: false }))
      .catch((err: unknown) => !ctl.signal.aborted && setState({ status: 'failed', text: apiErrorText(err, 'The shop’s health could not be loaded.') }));
  }, []);

  useEffect(() => {
    load();
    return () => live.current?.abort();
  }, [load]);

  return (
    <>
      <h1>Health</h1>
      {state.status === 'loading' && <p role="status">Loading the shop’s health…</p>}
      {state.status === 'failed' && <LoadFailed what={state.text} retry={load} />}
      {state.status === 'ready' && (
        <>
          <p className="admin-health-checked">
            <span role="status">Checked {formatUkDateTime(state.data.health.checked_at)} (London time).</span>{' '}
            <button type="button" className="button" onClick={() => !state.refreshing && load()} aria-disabled={state.refreshing}>
              {state.refreshing ? 'Refreshing…' : 'Refresh'}
            </button>
          </p>
          <AppErrorsTable groups={state.data.health.app_errors} />
          <HealthBacklogs health={state.data.health} />
          <Releases health={state.data.health} publish={state.data.publish} />
        </>
      )}
    </>
  );
}

function Releases({ health, publish }: { health: HealthAnswer; publish: LastPublish | null }) {
  const imp = health.last_import;
  return (
    <section aria-labelledby="health-releases">
      <h2 id="health-releases">Catalogue import and publish</h2>
      <dl className="summary-list admin-facts">
        <dt>Last catalogue import</dt>
        <dd className="health-last-import">{imp ? `${formatUkDateTime(imp.at)} by ${imp.by}: ${imp.summary}` : 'No import yet.'}</dd>
        <dt>Last publish</dt>
        <dd className="health-last-publish">
          {publish
            ? `Build ${publish.id}, built ${formatUkDateTime(publish.builtAt)}${publish.publishedAt === null ? '' : `, made current ${formatUkDateTime(publish.publishedAt)}`}`
            : 'The last publish could not be read.'}
        </dd>
      </dl>
    </section>
  );
}
