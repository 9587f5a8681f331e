import Link from 'next/link';
import { AddToBasket } from '@/components/basket/add-to-basket';
import type { ProductCard } from '@/lib/types';
import { formatPence, unitPriceLabel } from '@/lib/format';

/** A grid of products with image, name (linking to the product page), SKU, pack size
 * and trade price ex VAT. Card names are headings one level below the section the
 * grid sits in (h2 right under the page's h1, h3 under an h2). */
export function ProductGrid({ products, label, level = 2 }: { products: ProductCard[]; label: string; level?: 2 | 3 }) {
  const Name = level === 2 ? 'h2' : 'h3';
  return (
    <ul className="grid" aria-label={label}>
      {products.map((p) => (
        <li key={p.sku} className="card" data-sku={p.sku}>
          <img src={p.smallImg} alt="" width={160} height={160} loading="lazy" decoding="async" />
          <Name className="card-name">
            <Link href={p.path} prefetch={false}>
              {p.name}
            </Link>
          </Name>
          <p className="card-meta">
            SKU {p.sku} · Pack of {p.packSize}
          </p>
          <p className="card-price">
            <span className="price" data-pence={p.unitPrice}>
              {unitPriceLabel(p.unitPrice)}
            </span>{' '}
            <span className="muted">ex VAT · {formatPence(p.unitPrice * p.packSize)} a pack</span>
          </p>
          {p.inStock ? <AddToBasket sku={p.sku} packSize={p.packSize} inStock={p.inStock} name={p.name} /> : <p className="stock-out">Out of stock</p>}
        </li>
      ))}
    </ul>
  );
}
