'use client';
// The signed-in islands of catalogue pages, in one chunk that loads only once a buyer is
// signed in (buyer.tsx): Add and the quantity boxes, Add all, Add to list, the
// back-in-stock alert and the buyer's own prices, margins, quantity prices and stock.
export { AddAllToBasket } from '@/components/basket/add-all-to-basket';
export { OwnPackPrice, PackPrice, Price } from '@/components/basket/price';
export { BreakTable } from './break-table';
export { ProductActions } from './product-actions';
export { ProductMargin } from './product-margin';
export { StockFact } from './stock-fact';
