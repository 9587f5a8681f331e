'use client';
import { preOrderLines, preOrderOpenOn, type ForwardDates as Forward } from '@/lib/forward';
import { useLondonToday } from './use-london-today';

/** What a forward product says about its pre-order in place of its stock, on London's
 * date today in the browser (lib/forward.ts preOrderLines): null when it says nothing. */
export function usePreOrderText(forward: Forward | null | undefined, inStock: boolean): string[] | null {
  return preOrderLines(forward, useLondonToday(), inStock);
}

/** Whether a forward product's pre-order is open today in the browser (open while the
 * page hydrates, as it was built): a basket line of it then has no stock limit. */
export function usePreOrderOpen(forward: Forward | null | undefined): boolean {
  return preOrderOpenOn(forward, useLondonToday());
}

/** A product's pre-order words (usePreOrderText): "Pre-order for delivery from …" and
 * "Order by …" while open, "Pre-orders closed on …" after; as a product page's fact (dd)
 * or a card's or quick order row's line. */
export function PreOrderNote({ lines, as: Tag = 'p', className = '' }: { lines: string[]; as?: 'p' | 'dd' | 'span'; className?: string }) {
  const open = lines.length > 1;
  return (
    <Tag className={`pre-order ${open ? 'pre-order-open' : 'pre-order-closed'} ${className}`.trim()} data-preorder={open ? 'open' : 'closed'}>
      {lines.map((l, i) => (
        <span key={l} className="pre-order-line">
          {i > 0 && ' · '}
          {l}
        </span>
      ))}
    </Tag>
  );
}
