// Types of the build snapshot (the pages' _payload.json); they mirror
// functions/internal/pages. Money is integer pence ex VAT. The /api answers' types are
// generated from the Go answer types into api-types.ts; this file reshapes the ones a
// page draws like the snapshot's (productCardOf).
import type { ProductCardAnswer } from './api-types';

export interface ProductCard {
  sku: string;
  /** The product page: /{slug}/ */
  path: string;
  slug: string;
  name: string;
  packSize: number;
  unitPrice: number;
  vatRate: number;
  inStock: boolean;
  smallImg: string;
}

/** What a product grid shows of a product: the only fields a page sends the grid
 * (gridCards), so the page's RSC data carries nothing the grid does not use. */
export type GridCard = Pick<ProductCard, 'sku' | 'path' | 'name' | 'packSize' | 'unitPrice' | 'inStock' | 'smallImg'>;

/** The grid's fields of each card, and nothing else (a card's slug and VAT rate stay out
 * of the page's RSC data). */
export function gridCards(cards: readonly ProductCard[]): GridCard[] {
  return cards.map(({ sku, path, name, packSize, unitPrice, inStock, smallImg }) => ({ sku, path, name, packSize, unitPrice, inStock, smallImg }));
}

/** A product card of an /api answer (search, recommended) as the grids draw the snapshot's. */
export function productCardOf(c: ProductCardAnswer): ProductCard {
  return { sku: c.sku, path: c.path, slug: c.slug, name: c.name, packSize: c.pack_size, unitPrice: c.unit_price, vatRate: c.vat_rate, inStock: c.in_stock, smallImg: c.small_img };
}

export interface RangeLink {
  urlText: string;
  name: string;
  description: string;
  path: string;
  products: number;
}

export interface CategoryLink {
  id: number;
  slug: string;
  name: string;
  group: string;
  rangeUrlText: string;
  path: string;
  products: number;
}

export interface MenuGroup {
  name: string;
  categories: CategoryLink[];
}

export interface Menu {
  ranges: RangeLink[];
  groups: MenuGroup[];
}

export interface CatalogueFile {
  generatedAt: string;
  products: number;
  menu: Menu;
  /** Every page with a catalogue payload: home, ranges, categories, products. */
  pages: string[];
  productPaths: string[];
}

export interface Home {
  kind: 'home';
  ranges: RangeLink[];
  products: number;
}

export interface RangePage {
  kind: 'range';
  range: RangeLink;
  categories: CategoryLink[];
  featured: ProductCard[];
}

export interface CategoryPage {
  kind: 'category';
  range: RangeLink;
  category: CategoryLink;
  products: ProductCard[];
}

export type StockState = 'in-stock' | 'low-stock' | 'out-of-stock';

export interface ProductDetail extends ProductCard {
  description: string;
  largeImg: string;
  stockState: StockState;
}

export interface ProductPage {
  kind: 'product';
  product: ProductDetail;
  range: RangeLink;
  category: CategoryLink;
  related: ProductCard[];
}
