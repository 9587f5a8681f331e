import type { ProductDetail as Detail } from '@/lib/types';
import { formatPence } from '@/lib/format';
import { BreakTable, OwnPackPrice, Price, ProductActions, ProductMargin, StockFact } from './buyer';
import { ProductImage } from './product-image';

/** The main block of a product page: image, name, SKU, price, RRP and margin, pack, VAT,
 * stock, the quantity prices and the description. Prices, stock and the buying controls
 * are signed-in islands (buyer.tsx), drawn at list prices and the build's stock until a
 * buyer signs in. */
export function ProductDetail({ product: p }: { product: Detail }) {
  const pack = p.unit_price * p.pack_size;
  const packIncVat = Math.round((pack * (100 + p.vat_rate)) / 100);
  return (
    <div className="product">
      <ProductImage className="product-image" src={p.large_img} alt={p.name} width={640} height={640} fetchPriority="high" />
      <div className="product-info">
        <h1>{p.name}</h1>
        <p className="muted">SKU {p.sku}</p>
        <p className="product-price">
          <Price sku={p.sku} listPrice={p.unit_price} /> ex VAT
        </p>
        <ProductMargin sku={p.sku} margin={p.margin} />
        <dl className="product-facts">
          <dt>Pack size</dt>
          <dd>{p.pack_size} units</dd>
          <dt>Pack list price</dt>
          <dd>
            {formatPence(pack)} ex VAT ({formatPence(packIncVat)} inc VAT)
          </dd>
          <OwnPackPrice sku={p.sku} />
          <dt>VAT rate</dt>
          <dd>{p.vat_rate}%</dd>
          <dt>Availability</dt>
          <StockFact sku={p.sku} stockState={p.stock_state} forward={p.forward} />
        </dl>
        <BreakTable sku={p.sku} breaks={p.breaks} />
        <ProductActions sku={p.sku} packSize={p.pack_size} inStock={p.stock_state !== 'out-of-stock'} forward={p.forward} name={p.name} prompt />
        <p>{p.description}</p>
      </div>
    </div>
  );
}
