import type { Metadata } from 'next';
import Link from '@/components/app/link';
import { notFound } from 'next/navigation';
import { ProductDetail } from '@/components/catalogue/product-detail';
import { gridCards } from '@/lib/types';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { JsonLd } from '@/components/seo/json-ld';
import { catchAllPage, catchAllParams, type CatchAllPage as Data } from '@/lib/catch-all';
import { formatPence } from '@/lib/format';
import { pageMetadata, productImageUrl, productLd, siteName } from '@/lib/seo';

type Params = { slug: string[] };

export const dynamicParams = false;
export const generateStaticParams = catchAllParams;

function trail(data: Data) {
  const home = { name: 'Home', path: '/' };
  switch (data.kind) {
    case 'product':
      return [
        home,
        { name: data.range.name, path: data.range.path },
        { name: data.category.name, path: data.category.path },
        { name: data.product.name, path: data.product.path },
      ];
    case 'blog-index':
      return [home, { name: 'Blog', path: '/blog/' }];
    case 'content': {
      const section = data.page.section === 'blog' ? { name: 'Blog', path: '/blog/' } : { name: 'Help', path: '/help/faq/' };
      return [home, section, { name: data.page.title, path: data.page.path }];
    }
  }
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const data = catchAllPage((await params).slug);
  if (!data) return {};
  switch (data.kind) {
    case 'product': {
      const p = data.product;
      return pageMetadata({
        title: `${p.name} (${p.sku})`,
        description: `${p.name}, SKU ${p.sku}: ${formatPence(p.unit_price)} a unit ex VAT, sold in packs of ${p.pack_size}. Wholesale ${data.category.name.toLowerCase()} for retailers.`,
        path: p.path,
        image: productImageUrl(p),
      });
    }
    case 'blog-index':
      return pageMetadata({
        title: 'Trade blog',
        description: `Ordering guides and retail tips for independent card and gift shops from ${siteName}.`,
        path: '/blog/',
      });
    case 'content':
      return pageMetadata({
        title: data.page.title,
        description: data.page.description,
        path: data.page.path,
        type: data.page.section === 'blog' ? 'article' : 'website',
      });
  }
}

const longDate = (d: string) => new Date(d).toLocaleDateString('en-GB', { dateStyle: 'long' });

export default async function CatchAllPage({ params }: { params: Promise<Params> }) {
  const data = catchAllPage((await params).slug);
  if (!data) notFound();
  const crumbs = trail(data);
  if (data.kind === 'product') {
    return (
      <>
        <Breadcrumbs trail={crumbs} />
        <ProductDetail product={data.product} />
        {data.related.length > 0 && (
          <section aria-labelledby="related-title">
            <h2 id="related-title">Related products</h2>
            <ProductGrid products={gridCards(data.related)} label="Related products" level={3} />
          </section>
        )}
        <JsonLd data={productLd(data.product, data.category.name)} />
      </>
    );
  }
  if (data.kind === 'blog-index') {
    return (
      <>
        <Breadcrumbs trail={crumbs} />
        <h1>Trade blog</h1>
        <ul className="post-list">
          {data.posts.map((p) => (
            <li key={p.path}>
              <h2>
                <Link href={p.path}>{p.title}</Link>
              </h2>
              {p.date && <p className="muted">{longDate(p.date)}</p>}
              <p>{p.description}</p>
            </li>
          ))}
        </ul>
      </>
    );
  }
  const { page } = data;
  return (
    <article className="prose">
      <Breadcrumbs trail={crumbs} />
      <h1>{page.title}</h1>
      {page.date && <p className="muted">{longDate(page.date)}</p>}
      <div dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
