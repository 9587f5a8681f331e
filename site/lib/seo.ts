import type { Metadata } from 'next';
import type { ProductDetail } from './types';
import { decimalPrice } from './format';
import { preOrderOpen } from './forward';
import { hasPicture } from './product-image';
import { getShopConfig } from './shop-config';

/** The site's public base address: canonical URLs, Open Graph and the sitemap use it.
 * The build sets it (the local edge's address locally, the CDN's in the cloud). */
export const siteUrl = (process.env.NEXT_PUBLIC_SITE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');

/** The shop's trading name, from functions/config/shop.json (business.tradingName):
 * titles, Open Graph and the Organization. */
export const siteName = getShopConfig().business.tradingName;

/** An absolute URL on this site. */
export const absolute = (path: string) => siteUrl + path;

/** Title, description, canonical URL and Open Graph tags of one page. */
export function pageMetadata(p: { title: string; description: string; path: string; image?: string; type?: 'website' | 'article' }): Metadata {
  return {
    title: p.title,
    description: p.description,
    alternates: { canonical: p.path },
    openGraph: {
      title: p.title,
      description: p.description,
      url: p.path,
      siteName,
      type: p.type ?? 'website',
      locale: 'en_GB',
      ...(p.image && { images: [{ url: p.image }] }),
    },
  };
}

type JsonLd = Record<string, unknown>;

/** schema.org Organization of the shop. */
export function organizationLd(contact: { phone: string; email: string }): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: siteName,
    url: absolute('/'),
    contactPoint: { '@type': 'ContactPoint', telephone: contact.phone, email: contact.email, contactType: 'sales', areaServed: 'GB' },
  };
}

/** schema.org BreadcrumbList of a trail of pages. */
export function breadcrumbLd(trail: { name: string; path: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, item: absolute(c.path) })),
  };
}

const availability: Record<ProductDetail['stock_state'], string> = {
  'in-stock': 'https://schema.org/InStock',
  'low-stock': 'https://schema.org/LimitedAvailability',
  'out-of-stock': 'https://schema.org/OutOfStock',
};

// Formatting pence is lib/format.ts's (the one place that calculates with them).
export { decimalPrice } from './format';

/** The absolute URL of a product's picture for Open Graph, or undefined for a product
 * without one: the placeholder is not the product's picture, so none is named. */
export function productImageUrl(p: Pick<ProductDetail, 'large_img'>): string | undefined {
  return hasPicture(p.large_img) ? absolute(p.large_img) : undefined;
}

/** schema.org Product with its trade offer (unit price ex VAT, sold in packs); `image`
 * only when the product has a picture. A forward product whose pre-order is open when the
 * page is built is offered as a pre-order, available from its delivery date. */
export function productLd(p: ProductDetail, categoryName: string, now: Date = new Date()): JsonLd {
  const preOrder = preOrderOpen(p.forward, now);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    sku: p.sku,
    description: p.description,
    category: categoryName,
    ...(hasPicture(p.large_img) && { image: [absolute(p.large_img)] }),
    url: absolute(p.path),
    offers: {
      '@type': 'Offer',
      url: absolute(p.path),
      price: decimalPrice(p.unit_price),
      priceCurrency: 'GBP',
      availability: preOrder ? 'https://schema.org/PreOrder' : availability[p.stock_state],
      ...(preOrder && p.forward && { availabilityStarts: p.forward.delivery_from }),
      itemCondition: 'https://schema.org/NewCondition',
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        price: decimalPrice(p.unit_price),
        priceCurrency: 'GBP',
        valueAddedTaxIncluded: false,
      },
      eligibleQuantity: { '@type': 'QuantitativeValue', minValue: p.pack_size, unitText: `pack of ${p.pack_size}` },
    },
  };
}
