'use client';
import { useOwnPrice } from '@/components/basket/price';
import { availabilityClass, availabilityText } from '@/lib/availability';
import type { StockState } from '@/lib/types';

const stockText: Record<StockState, string> = {
  'in-stock': 'In stock',
  'low-stock': 'Low stock: order soon',
  'out-of-stock': 'Out of stock',
};

/** A product page's availability: the stock as the catalogue had it when the page was
 * built, replaced for a signed-in buyer by the API's answer (with their prices) once it
 * arrives, in the same place. */
export function StockFact({ sku, stockState }: { sku: string; stockState: StockState }) {
  const live = useOwnPrice(sku)?.availability;
  if (!live) return <dd className={`stock stock-${stockState}`}>{stockText[stockState]}</dd>;
  return (
    <dd className={availabilityClass(live)} data-stock={live.status}>
      {availabilityText(live)}
    </dd>
  );
}
