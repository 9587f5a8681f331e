'use client';
import { useOwnPrice } from '@/components/basket/price';
import { availabilityClass, availabilityText } from '@/lib/availability';
import type { ForwardDates as Forward } from '@/lib/forward';
import type { StockState } from '@/lib/types';
import { PreOrderNote, usePreOrderText } from './pre-order-note';
import { BuildStockFact } from './signed-out';

/** A product page's availability: the stock as the catalogue had it when the page was
 * built, replaced for a signed-in buyer by the API's answer (with their prices) once it
 * arrives, in the same place. A forward product says when to pre-order instead while its
 * pre-order is open, and that pre-orders closed once it is out of stock after it. */
export function StockFact({ sku, stockState, forward = null }: { sku: string; stockState: StockState; forward?: Forward | null }) {
  const live = useOwnPrice(sku)?.availability;
  const inStock = live ? live.status !== 'out' : stockState !== 'out-of-stock';
  const pre = usePreOrderText(forward, inStock);
  if (!live) return <BuildStockFact stockState={stockState} forward={forward} />;
  if (pre) return <PreOrderNote lines={pre} as="dd" />;
  return (
    <dd className={availabilityClass(live)} data-stock={live.status}>
      {availabilityText(live)}
    </dd>
  );
}
