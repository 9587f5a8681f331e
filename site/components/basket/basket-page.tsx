'use client';
import Link from '@/components/app/link';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { ProductImage } from '@/components/catalogue/product-image';
import { LoadFailed } from '@/components/errors/load-failed';
import { SaveBasketAsList } from '@/components/lists/save-basket-as-list';
import { apiErrorText } from '@/lib/api';
import { availabilityClass, availabilityText, shortLineText } from '@/lib/availability';
import { applyCoupon, getBasket, packsBoxes, packsOf, packsProblem, removeLine, setLine, shortReason, type Basket } from '@/lib/basket';
import { formatPence } from '@/lib/format';
import { CouponTerms } from './coupon-terms';
import { LineUnitPrice } from './line-unit-price';

const message = (err: unknown) => apiErrorText(err, 'Something went wrong. Please try again.');

/** The basket page: lines with quantities in packs, coupon, totals ex VAT, VAT and
 * inc VAT, the minimum-order and free-delivery nudges, Continue to billing, and Save basket
 * as list. */
export function BasketPage() {
  const account = useAccount();
  const [basket, setBasket] = useState<Basket | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [coupon, setCoupon] = useState('');
  const [packs, setPacks] = useState<Record<string, string>>({});
  /** A packs box's own problem, shown beside it, by SKU. */
  const [boxErrors, setBoxErrors] = useState<Record<string, string>>({});
  const uid = account.user === 0 ? '' : account.user.uid;
  /** The basket on screen, and a ticket per change: changes can overlap and answer out
   * of order, and only the newest change's basket is shown. */
  const shown = useRef<Basket | null>(null);
  const ticket = useRef(0);

  const show = useCallback((b: Basket, submitted?: string) => {
    const before = shown.current;
    shown.current = b;
    setBasket(b);
    setPacks((typed) => packsBoxes(before, b, typed, submitted));
  }, []);

  const load = useCallback(() => {
    setError('');
    getBasket()
      .then(show)
      .catch(() => setError('There was a technical problem loading your basket.'));
  }, [show]);
  useEffect(() => {
    if (uid) load();
  }, [uid, load]);

  if (account.status === 'loading') return <p role="status">Loading your basket…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (error && !basket) return <LoadFailed what={error} retry={load} />;
  if (!basket) return <p role="status">Loading your basket…</p>;

  async function run(work: () => Promise<Basket | void>, done: string, sku?: string) {
    const mine = ++ticket.current;
    setError('');
    setNotice('');
    try {
      const b = (await work()) ?? (await getBasket());
      if (mine !== ticket.current) return; // a later change answers with a newer basket
      show(b, sku);
      setNotice(done);
    } catch (err) {
      if (mine !== ticket.current) return;
      setError(message(err));
      // Earlier changes may have been dropped for this one: show the basket as it is.
      getBasket()
        .then((b) => mine === ticket.current && show(b))
        .catch(() => {});
    }
  }
  const update = (e: FormEvent, sku: string, packSize: number) => {
    e.preventDefault();
    const typed = packs[sku] ?? '';
    const problem = packsProblem(typed);
    setBoxErrors(({ [sku]: _, ...others }) => (problem ? { ...others, [sku]: problem } : others));
    if (problem) {
      // The line is unchanged: its box shows its packs again, the problem names what was typed.
      const line = basket.lines.find((l) => l.sku === sku);
      if (line) setPacks((boxes) => ({ ...boxes, [sku]: packsOf(line) }));
      return;
    }
    const n = Number(typed);
    void run(() => setLine(sku, n * packSize), n === 0 ? 'Line removed.' : 'Quantity updated.', sku);
  };
  const submitCoupon = (e: FormEvent) => {
    e.preventDefault();
    if (!coupon.trim()) return;
    void run(() => applyCoupon(coupon), 'Coupon applied.');
  };

  const short = shortReason(basket);
  if (basket.lines.length === 0) {
    return (
      <p>
        Your basket is empty. Browse the <Link href="/">ranges</Link> to start an order.
      </p>
    );
  }
  return (
    <>
      {error && <p className="form-error" role="alert">{error}</p>}
      {notice && <p className="form-ok" role="status">{notice}</p>}
      <table className="basket-table">
        <caption className="sr-only">Your basket</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Unit price ex VAT</th>
            <th scope="col">Packs</th>
            <th scope="col">Line ex VAT</th>
            <th scope="col"><span className="sr-only">Remove</span></th>
          </tr>
        </thead>
        <tbody>
          {basket.lines.map((l) => (
            <tr key={l.sku} data-sku={l.sku}>
              <td>
                <ProductImage src={l.small_img} alt="" width={48} height={48} />{' '}
                <Link href={l.path}>{l.name}</Link>
                <br />
                <span className="muted">SKU {l.sku} · packs of {l.pack_size} · VAT {l.vat_rate}%</span>
                {l.short ? (
                  <strong id={`short-${l.sku}`} className="basket-stock basket-short" data-short="true">
                    {shortLineText(l.availability)}
                  </strong>
                ) : (
                  l.availability && (
                    <span className={`basket-stock ${availabilityClass(l.availability)}`} data-stock={l.availability.status}>
                      {availabilityText(l.availability)}
                    </span>
                  )
                )}
              </td>
              <td data-label="Unit price ex VAT">
                <LineUnitPrice unit={l.unit_price} list={l.list_price} discountPercent={l.discount_percent} />
              </td>
              <td data-label="Packs">
                <form onSubmit={(e) => update(e, l.sku, l.pack_size)} className="qty-form" noValidate>
                  <label htmlFor={`qty-${l.sku}`} className="sr-only">Packs of {l.name}</label>
                  <input
                    id={`qty-${l.sku}`}
                    type="number"
                    min={0}
                    step={1}
                    value={packs[l.sku] ?? ''}
                    aria-invalid={boxErrors[l.sku] || l.short ? true : undefined}
                    aria-describedby={boxErrors[l.sku] ? `qty-${l.sku}-error` : l.short ? `short-${l.sku}` : undefined}
                    onChange={(e) => setPacks((typed) => ({ ...typed, [l.sku]: e.target.value }))}
                  />
                  <button type="submit" className="button">Update</button>
                </form>
                {boxErrors[l.sku] && (
                  <p id={`qty-${l.sku}-error`} className="field-error" role="alert">
                    {boxErrors[l.sku]}
                  </p>
                )}
                <span className="muted">{l.quantity} units</span>
              </td>
              <td className="line-amount" data-label="Line ex VAT">{formatPence(l.line_amount)}</td>
              <td className="line-remove">
                <button type="button" className="link-button" onClick={() => void run(() => removeLine(l.sku), 'Line removed.', l.sku)} aria-label={`Remove ${l.name}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <section className="coupon" aria-labelledby="coupon-title">
        <h2 id="coupon-title">Coupon</h2>
        {basket.coupon ? (
          <>
            <p>
              <strong className="coupon-code">{basket.coupon.id}</strong>: {basket.coupon.description}
              {basket.coupon.error && <span className="form-error"> Not applied: {basket.coupon.error}</span>}{' '}
              <button type="button" className="link-button" onClick={() => void run(() => applyCoupon(''), 'Coupon removed.')}>
                Remove coupon
              </button>
            </p>
            <CouponTerms code={basket.coupon.id} />
          </>
        ) : (
          <form onSubmit={submitCoupon} className="coupon-form">
            <label htmlFor="coupon-code">Coupon code</label>
            <input id="coupon-code" value={coupon} onChange={(e) => setCoupon(e.target.value)} autoCapitalize="characters" />
            <button type="submit" className="button">Apply</button>
          </form>
        )}
      </section>

      <dl className="totals">
        <dt>Goods ex VAT</dt>
        <dd data-total="goods">{formatPence(basket.goods_ex_vat)}</dd>
        {basket.coupon_discount > 0 && (
          <>
            <dt>Coupon</dt>
            <dd data-total="coupon">−{formatPence(basket.coupon_discount)}</dd>
          </>
        )}
        <dt>Total ex VAT</dt>
        <dd data-total="net">{formatPence(basket.net_ex_vat)}</dd>
        <dt>VAT</dt>
        <dd data-total="vat">{formatPence(basket.vat)}</dd>
        <dt>Total inc VAT</dt>
        <dd data-total="gross">{formatPence(basket.total_inc_vat)}</dd>
      </dl>
      {basket.free_delivery_in > 0 ? (
        <p className="nudge">Add {formatPence(basket.free_delivery_in)} more (ex VAT) for free standard delivery.</p>
      ) : (
        <p className="nudge">Your order qualifies for free standard delivery.</p>
      )}
      {basket.below_minimum_by > 0 && (
        <p id="minimum-reason" className="nudge">
          The minimum order is {formatPence(basket.minimum_order)} ex VAT: add {formatPence(basket.below_minimum_by)} more to continue.
        </p>
      )}
      {short && (
        <p id="short-reason" className="nudge basket-short" role="alert">
          {short}
        </p>
      )}
      {basket.below_minimum_by > 0 || short ? (
        <button type="button" className="button" disabled aria-describedby={[basket.below_minimum_by > 0 && 'minimum-reason', short && 'short-reason'].filter(Boolean).join(' ')}>
          Continue to billing
        </button>
      ) : (
        <Link href="/checkout/billing/" className="button">
          Continue to billing
        </Link>
      )}
      <SaveBasketAsList />
    </>
  );
}
