'use client';
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import { useAccount } from '@/components/account/use-account';
import type * as Islands from './buyer-islands';
import { BreakRowsTable, BuildStockFact, ListMargin, ListPackPrice, ListPrice, SignedOutActions, SignedOutAddAll } from './signed-out';

// Catalogue pages' signed-in islands (docs/site-shell.md "Signed-in islands"). Each
// component here draws its signed-out form (signed-out.tsx) until a buyer is signed in;
// then it loads the real one from buyer-islands.tsx, one chunk for all of them, and
// draws the signed-out form while it loads. A signed-out visitor's page never loads or
// runs that code (the basket, lists, alerts and own prices); site/e2e/islands.test.ts
// holds it.

let islands: Promise<typeof Islands> | undefined;
const loadIslands = () => (islands ??= import('./buyer-islands'));

/** Whether a buyer is signed in (false until the provider has said so). */
export const useSignedIn = () => useAccount().user !== 0;

/** The island `pick` chooses from buyer-islands.tsx, drawn as `SignedOut` (given the same
 * props) until a buyer is signed in and while its code loads. */
function island<P extends object>(name: string, pick: (m: typeof Islands) => ComponentType<P>, SignedOut: ComponentType<P>) {
  const Real = lazy(() => loadIslands().then((m) => ({ default: pick(m) })));
  function Island(props: P) {
    if (!useSignedIn()) return <SignedOut {...props} />;
    return (
      <Suspense fallback={<SignedOut {...props} />}>
        <Real {...props} />
      </Suspense>
    );
  }
  Island.displayName = `Island(${name})`;
  return Island;
}

type Props<C extends keyof typeof Islands> = ComponentProps<(typeof Islands)[C]>;

export const Price = island(
  'Price',
  (m) => m.Price,
  ({ listPrice }: Props<'Price'>) => <ListPrice listPrice={listPrice} />,
);
export const PackPrice = island(
  'PackPrice',
  (m) => m.PackPrice,
  ({ listPackPrice }: Props<'PackPrice'>) => <ListPackPrice listPackPrice={listPackPrice} />,
);
export const OwnPackPrice = island(
  'OwnPackPrice',
  (m) => m.OwnPackPrice,
  (_: Props<'OwnPackPrice'>) => null,
);
export const ProductMargin = island(
  'ProductMargin',
  (m) => m.ProductMargin,
  ({ margin, className }: Props<'ProductMargin'>) => <ListMargin margin={margin} className={className} />,
);
export const StockFact = island(
  'StockFact',
  (m) => m.StockFact,
  ({ stockState, forward }: Props<'StockFact'>) => <BuildStockFact stockState={stockState} forward={forward} />,
);
export const BreakTable = island(
  'BreakTable',
  (m) => m.BreakTable,
  ({ breaks }: Props<'BreakTable'>) => <BreakRowsTable rows={breaks} />,
);
export const ProductActions = island('ProductActions', (m) => m.ProductActions, SignedOutActions);
export const AddAllToBasket = island('AddAllToBasket', (m) => m.AddAllToBasket, SignedOutAddAll);
