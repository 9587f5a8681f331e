// Types of the build snapshot (catalogue.json and the pages' _payload.json). The shapes
// are generated from functions/internal/pages into api-types.ts with the /api answers'
// (docs/api.md "The wire contract"); this file names them for the pages and keeps the
// site's own narrowings of them.
import type { ProductCard, ProductDetail } from './api-types';

export type {
  CatalogueFile,
  CategoryLink,
  CategoryPage,
  Home,
  Menu,
  MenuGroup,
  ProductCard,
  ProductDetail,
  ProductPage,
  RangeLink,
  RangePage,
} from './api-types';

/** What a product grid shows of a product: the only fields a page sends the grid
 * (gridCards), so the page's RSC data carries nothing the grid does not use. The margin at
 * list price (with the RRP) is optional: search hits and recommendations may not carry it,
 * and a signed-in buyer sees their own from POST /api/prices anyway. */
export type GridCard = Pick<ProductCard, 'sku' | 'path' | 'name' | 'pack_size' | 'unit_price' | 'in_stock' | 'small_img'> &
  Partial<Pick<ProductCard, 'margin' | 'forward'>>;

/** The grid's fields of each card, and nothing else (a card's slug and VAT rate stay out
 * of the page's RSC data). */
export function gridCards(cards: readonly ProductCard[]): GridCard[] {
  return cards.map(({ sku, path, name, pack_size, unit_price, in_stock, small_img, margin, forward }) => ({
    sku,
    path,
    name,
    pack_size,
    unit_price,
    in_stock,
    small_img,
    margin,
    forward,
  }));
}

export type StockState = ProductDetail['stock_state'];
