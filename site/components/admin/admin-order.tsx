'use client';
import Link from '@/components/app/link';
import { useSearchParams } from 'next/navigation';
import { LoadFailed } from '@/components/errors/load-failed';
import { OrderAddresses } from '@/components/checkout/order-addresses';
import { OrderLinesTable } from '@/components/checkout/order-lines-table';
import { OrderTotals } from '@/components/checkout/order-totals';
import { adminOrder, type AdminOrder } from '@/lib/admin';
import { formatPence, formatUkDateTime } from '@/lib/format';
import { isProForma, statusWord } from '@/lib/order-status';
import { staffCardRefundText, staffPaymentText } from '@/lib/payment-line';
import { AuditTrail } from './audit-trail';
import { CreditForm } from './credit-form';
import { OrderActions } from './order-actions';
import { useAdminRecord } from './use-admin-record';

/** /admin/orders/?id=TS-100001: one order as staff see it, with the moves allowed now and
 * its changes. */
export function AdminOrderPage() {
  const id = (useSearchParams().get('id') ?? '').trim();
  if (!id) {
    return (
      <>
        <h1>Order</h1>
        <p>
          No order is named here. Choose one from the <Link href="/admin/">orders list</Link>.
        </p>
      </>
    );
  }
  return <AdminOrderDetail key={id} id={id} />;
}

function AdminOrderDetail({ id }: { id: string }) {
  const { state, reload, replace } = useAdminRecord(() => adminOrder(id), `Order ${id} could not be loaded.`);
  let body;
  if (state.status === 'loading') body = <p role="status">Loading the order…</p>;
  else if (state.status === 'failed') {
    body = state.notFound ? (
      <p className="form-error" role="alert">
        There is no order {id}. <Link href="/admin/">Back to the orders</Link>
      </p>
    ) : (
      <LoadFailed what={state.text} retry={reload} />
    );
  } else {
    const { order, audit } = state.data;
    body = (
      <>
        <OrderFacts order={order} />
        <OrderActions order={order} done={replace} reload={reload} />
        <CreditForm order={order} done={replace} reload={reload} />
        <section aria-labelledby="order-lines">
          <h2 id="order-lines">Lines</h2>
          <OrderLinesTable lines={order.lines} dispatched={order.status === 'dispatched' || order.status === 'completed'} />
          <OrderTotals order={order} />
        </section>
        <OrderAddresses order={order} Heading="h2" withPoRef={false} />
        <AuditTrail entries={audit} />
      </>
    );
  }
  return (
    <>
      <h1>Order {id}</h1>
      <p>
        <Link href="/admin/">← All orders</Link>
      </p>
      {body}
    </>
  );
}

/** How the order is paid, by its billing's payment method. */
const METHOD_WORDS: Record<string, string> = {
  account: 'On account',
  proforma: 'Pro-forma (paid before dispatch)',
  card: 'By card (paid before dispatch)',
};

const when = (ms: number | null | undefined) => (ms ? formatUkDateTime(ms) : null);

/** The order's facts: its status and where it is in its life, who placed it, how it is paid
 * (and where a card payment is), and the refunds to its card with their status. */
function OrderFacts({ order: o }: { order: AdminOrder }) {
  const cardRefunds = o.payment?.card_refunds ?? [];
  return (
    <dl className="summary-list admin-facts">
      <dt>Status</dt>
      <dd>
        <span className={`status status-${statusWord(o.status).toLowerCase()}`}>{statusWord(o.status)}</span>
        {o.status === 'cancelling' && <span className="muted"> (stock is being given back)</span>}
      </dd>
      <dt>Placed</dt>
      <dd>{formatUkDateTime(o.placed_at)}</dd>
      <dt>Business</dt>
      <dd>
        {o.business || o.billing?.company || '—'} · <Link href={`/admin/accounts/?uid=${encodeURIComponent(o.uid)}`}>{o.email || o.uid}</Link>
      </dd>
      <dt>Payment</dt>
      <dd className="payment-fact">
        {METHOD_WORDS[o.billing?.payment_method ?? 'proforma'] ?? (isProForma(o) ? METHOD_WORDS.proforma : METHOD_WORDS.account)} · {staffPaymentText(o)}
      </dd>
      {cardRefunds.length > 0 && (
        <>
          <dt>Card refunds</dt>
          <dd>
            <ul className="card-refund-facts">
              {cardRefunds.map((r) => (
                <li key={r.id} className={`card-refund-fact card-refund-${r.status}`}>
                  {staffCardRefundText(r)}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt>PO reference</dt>
      <dd>{o.billing?.po_ref || '—'}</dd>
      <dt>Invoice</dt>
      <dd>{o.invoice ? o.invoice.number : 'Being issued'}</dd>
      {o.credit_notes.length > 0 && (
        <>
          <dt>Credit notes</dt>
          <dd>
            {o.credit_notes.map((c) => (
              <span key={c.number} className="credit-note-fact">
                {c.number} of {formatUkDateTime(c.issued_at)}: {formatPence(c.total_inc_vat)} inc VAT credited against {c.invoice} ({c.reason}){' '}
              </span>
            ))}
          </dd>
        </>
      )}
      {o.confirmed_at ? (
        <>
          <dt>Confirmed</dt>
          <dd>{when(o.confirmed_at)}</dd>
        </>
      ) : null}
      {o.dispatched_at || o.dispatch ? (
        <>
          <dt>Dispatched</dt>
          <dd>
            {when(o.dispatched_at) ?? 'Yes'}
            {o.dispatch && (
              <>
                {' '}
                by {o.dispatch.carrier}, tracking reference <span className="tracking">{o.dispatch.tracking}</span>
              </>
            )}
          </dd>
        </>
      ) : null}
      {o.completed_at ? (
        <>
          <dt>Completed</dt>
          <dd>{when(o.completed_at)}</dd>
        </>
      ) : null}
      {o.cancelled_at || o.status === 'cancelled' || o.status === 'cancelling' ? (
        <>
          <dt>Cancelled</dt>
          <dd>
            {when(o.cancelled_at) ?? 'Yes'}
            {o.cancel_reason ? `: ${o.cancel_reason}` : ''}
          </dd>
        </>
      ) : null}
      <dt>Version</dt>
      <dd>{o.version}</dd>
    </dl>
  );
}
