'use client';
import Link from '@/components/app/link';
import { usePathname } from 'next/navigation';
import { useAccount } from '@/components/account/use-account';
import { ProductImage } from '@/components/catalogue/product-image';
import { loadBasket } from '@/lib/account-store';
import { WIDGET_LINES } from '@/lib/basket';
import { formatPence } from '@/lib/format';

/** The header basket (signed in only): the 10 most recent lines in a dropdown, with
 * loading, error, empty and populated states and a View Basket button. */
export function BasketWidget() {
  const account = useAccount();
  const pathname = usePathname();
  if (account.user === 0) return null;
  const count = account.cart.length;
  return (
    <details className="basket-widget" key={pathname}>
      <summary>Basket{account.basket === 'populated' ? ` (${count})` : ''}</summary>
      <div className="basket-dropdown">
        {(account.basket === 'loading' || account.basket === 'idle') && <p role="status">Loading your basket…</p>}
        {account.basket === 'error' && (
          <div role="alert">
            <button type="button" className="button" onClick={() => void loadBasket()}>
              Basket Error
            </button>
            <p>There was a technical problem loading your basket.</p>
          </div>
        )}
        {account.basket === 'empty' && <p>Your basket is empty.</p>}
        {account.basket === 'populated' && (
          <>
            <ul className="basket-lines">
              {account.cart.slice(0, WIDGET_LINES).map((l) => (
                <li key={String(l.id)}>
                  <ProductImage src={l.product.small_img} alt="" width={40} height={40} />
                  <span className="basket-line-name">{l.product.name}</span>
                  <span className="basket-line-qty">× {l.quantity}</span>
                  <span className="basket-line-amount">{formatPence(l.line_amount)}</span>
                </li>
              ))}
            </ul>
            {count > WIDGET_LINES && <p className="muted">(Showing Most Recent 10)</p>}
          </>
        )}
        <Link href="/checkout/basket/" className="button">
          View Basket
        </Link>
      </div>
    </details>
  );
}
