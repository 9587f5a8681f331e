'use client';
import Link from '@/components/app/link';
import { useSearchParams } from 'next/navigation';
import { LoadFailed } from '@/components/errors/load-failed';
import { adminDemand, adminForwardList, type DemandOf } from '@/lib/forward-admin';
import { formatLondonDay } from '@/lib/london-dates';
import { ForwardDemand } from './forward-demand';
import { useAdminRecord } from './use-admin-record';

const demandHref = (of: DemandOf) =>
  'sku' in of ? `/admin/forward/?sku=${encodeURIComponent(of.sku)}` : `/admin/forward/?range=${encodeURIComponent(of.range)}`;

/** /admin/forward/: the forward products by range, each linked to its demand (?sku=), each
 * range to its range's (?range=); docs/forward-orders.md "Demand". */
export function ForwardAdmin() {
  const params = useSearchParams();
  const sku = (params.get('sku') ?? '').trim().toUpperCase();
  const range = (params.get('range') ?? '').trim();
  const of: DemandOf | null = sku ? { sku } : range ? { range } : null;
  return (
    <>
      <h1>Forward orders</h1>
      {of ? (
        <>
          <p>
            <Link href="/admin/forward/">All forward products</Link>
          </p>
          <DemandView key={demandHref(of)} of={of} />
        </>
      ) : (
        <ForwardList />
      )}
    </>
  );
}

function ForwardList() {
  const { state, reload } = useAdminRecord(() => adminForwardList(), 'The forward products could not be loaded.');
  if (state.status === 'loading') return <p role="status">Loading forward products…</p>;
  if (state.status === 'failed') return <LoadFailed what={state.text} retry={reload} />;
  const { ranges } = state.data;
  if (ranges.length === 0) return <p>No product is marked forward. Mark one on its stock page, or with the catalogue import.</p>;
  return (
    <>
      {ranges.map((r) => (
        <section key={r.range.url_text} aria-labelledby={`range-${r.range.url_text}`}>
          <h2 id={`range-${r.range.url_text}`}>
            <Link href={demandHref({ range: r.range.url_text })}>{r.range.name || r.range.url_text}</Link>
          </h2>
          <ul className="forward-products">
            {r.products.map((p) => (
              <li key={p.sku}>
                <Link href={demandHref({ sku: p.sku })}>
                  {p.name} <span className="muted">({p.sku})</span>
                </Link>{' '}
                <span className="muted">
                  delivery from {formatLondonDay(p.forward.delivery_from)}, order by {formatLondonDay(p.forward.order_by)}
                  {p.forward.expected > 0 && `, ${p.forward.expected} units expected`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function DemandView({ of }: { of: DemandOf }) {
  const { state, reload } = useAdminRecord(() => adminDemand(of), 'The demand could not be loaded.');
  if (state.status === 'loading') return <p role="status">Loading the demand…</p>;
  if (state.status === 'failed') {
    return state.notFound ? (
      <p className="form-error" role="alert">
        {'sku' in of ? `There is no product ${of.sku}.` : `There is no range ${of.range}.`}
      </p>
    ) : (
      <LoadFailed what={state.text} retry={reload} />
    );
  }
  return <ForwardDemand of={of} demand={state.data} />;
}
