'use client';
import Link from '@/components/app/link';
import type { DemandAnswer } from '@/lib/api-types';
import { downloadDemand, type DemandOf } from '@/lib/forward-admin';
import { formatLondonDay, londonDay } from '@/lib/london-dates';
import { FormOutcome } from './form-outcome';
import { useAdminSubmit } from './use-admin-submit';

type DemandProduct = DemandAnswer['products'][number];
type Quantities = DemandProduct['units'];

const BUCKETS: [keyof Quantities, string][] = [
  ['ordered', 'Ordered'],
  ['open', 'On order'],
  ['allocated', 'Allocated'],
  ['backordered', 'Backordered'],
  ['cancelled', 'Cancelled'],
];

/** "12 packs (72 units)". */
const packsAndUnits = (packs: number, units: number) => `${packs} ${packs === 1 ? 'pack' : 'packs'} (${units} units)`;

/** The demand of one forward product or of a range's (GET /api/admin/forward/demand): per
 * product its figures, then by account; Download CSV saves the same for the supplier order. */
export function ForwardDemand({ of, demand }: { of: DemandOf; demand: DemandAnswer }) {
  const title = 'sku' in of ? (demand.products[0]?.name ?? of.sku) : demand.range.name || demand.range.url_text;
  return (
    <>
      <h2>Demand: {title}</h2>
      {'sku' in of && demand.range.url_text && (
        <p>
          Range: <Link href={`/admin/forward/?range=${encodeURIComponent(demand.range.url_text)}`}>{demand.range.name || demand.range.url_text}</Link>
        </p>
      )}
      <DemandDownload of={of} />
      {demand.products.length === 0 && <p>No product of this range is marked forward.</p>}
      {demand.products.map((p) => (
        <ProductDemand key={p.sku} product={p} heading={'range' in of} />
      ))}
    </>
  );
}

function DemandDownload({ of }: { of: DemandOf }) {
  const { busy, outcome, submit } = useAdminSubmit();
  function download() {
    if (busy) return;
    void submit(async () => `${await downloadDemand(of, londonDay(Date.now()))} is downloaded.`, 'The demand could not be prepared.');
  }
  return (
    <div className="admin-form">
      <FormOutcome outcome={outcome} />
      <button type="button" className="button" onClick={download} aria-disabled={busy} aria-busy={busy}>
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </button>
    </div>
  );
}

function ProductDemand({ product: p, heading }: { product: DemandProduct; heading: boolean }) {
  const f = p.forward;
  return (
    <section className="forward-demand" aria-label={`Demand for ${p.name}`} data-sku={p.sku}>
      {heading && (
        <h3>
          <Link href={`/admin/forward/?sku=${encodeURIComponent(p.sku)}`}>{p.name}</Link> <span className="muted">({p.sku})</span>
        </h3>
      )}
      <dl className="summary-list admin-facts">
        <dt>Delivery</dt>
        <dd>{f ? `From ${formatLondonDay(f.delivery_from)}, order by ${formatLondonDay(f.order_by)}` : 'No longer on pre-order'}</dd>
        <dt>Pack size</dt>
        <dd>{p.pack_size} units</dd>
        <dt>Expected</dt>
        <dd data-figure="expected">{f && f.expected > 0 ? `${f.expected} units` : 'Not known'}</dd>
        <dt>Received</dt>
        <dd data-figure="received">{p.received} units</dd>
        {BUCKETS.map(([k, label]) => [
          <dt key={`${k}-t`}>{label}</dt>,
          <dd key={k} data-figure={k}>
            {packsAndUnits(p.packs[k], p.units[k])}
          </dd>,
        ])}
      </dl>
      {p.accounts.length === 0 ? (
        <p>No forward orders yet.</p>
      ) : (
        <table className="basket-table admin-table forward-accounts">
          <caption>By account (packs)</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Orders</th>
              {BUCKETS.map(([k, label]) => (
                <th key={k} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.accounts.map((a) => (
              <tr key={a.uid} data-uid={a.uid}>
                <th scope="row">
                  <Link href={`/admin/accounts/?uid=${encodeURIComponent(a.uid)}`}>{a.company}</Link>
                </th>
                <td>{a.orders}</td>
                {BUCKETS.map(([k]) => (
                  <td key={k} data-figure={k}>
                    {a.packs[k]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
