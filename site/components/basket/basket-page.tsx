'use client';
import Link from '@/components/app/link';
import { SignedOutNotice } from '@/components/account/signed-out-notice';
import { useAccount } from '@/components/account/use-account';
import { Totals } from '@/components/checkout/order-totals';
import { LoadFailed } from '@/components/errors/load-failed';
import { formatPence } from '@/lib/format';
import { SaveBasketAsList } from '@/components/lists/save-basket-as-list';
import { BasketTable } from './basket-table';
import { ContinueToBilling } from './continue-to-billing';
import { CouponBox } from './coupon-box';
import { useBasketChanges } from './use-basket-changes';

/** The basket page: lines with quantities in packs (and the nudges to the next quantity
 * break), coupon, the buyer's price group, totals ex VAT, VAT and inc VAT, the minimum-order
 * and free-delivery nudges, Continue to billing, and Save basket as list. */
export function BasketPage() {
  const account = useAccount();
  const b = useBasketChanges(account.user === 0 ? '' : account.user.uid);
  const { basket } = b;

  if (account.status === 'loading') return <p role="status">Loading your basket…</p>;
  if (account.user === 0) return <SignedOutNotice />;
  if (b.error && !basket) return <LoadFailed what={b.error} retry={b.load} />;
  if (!basket) return <p role="status">Loading your basket…</p>;
  if (basket.lines.length === 0) {
    return (
      <p>
        Your basket is empty. Browse the <Link href="/">ranges</Link> to start an order.
      </p>
    );
  }
  return (
    <>
      {b.error && (
        <p className="form-error" role="alert">
          {b.error}
        </p>
      )}
      {b.notice && (
        <p className="form-ok" role="status">
          {b.notice}
        </p>
      )}
      <BasketTable
        lines={basket.lines}
        packs={b.packs}
        boxErrors={b.boxErrors}
        onType={b.typePacks}
        onUpdate={b.updatePacks}
        onRemove={b.removeLine}
        onAddPacks={b.addPacks}
      />
      <CouponBox coupon={basket.coupon} onApply={b.applyCoupon} onRemove={b.removeCoupon} />
      {basket.price_group && <p className="price-group-note">Prices: {basket.price_group.name}</p>}
      <Totals figures={basket} />
      {basket.forward_total && (
        <p className="forward-note" data-total="forward">
          Of this, {formatPence(basket.forward_total.total_inc_vat)} inc VAT is for pre-order lines: at checkout they become a forward order of their own,
          delivered free and invoiced when the goods are allocated to you. They count towards the minimum order and free delivery.
        </p>
      )}
      <ContinueToBilling basket={basket} />
      <SaveBasketAsList />
    </>
  );
}
