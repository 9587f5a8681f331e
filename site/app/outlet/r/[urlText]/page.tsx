import type { Metadata } from 'next';
import Link from '@/components/app/link';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { gridCards } from '@/lib/types';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { RangeListing } from '@/components/catalogue/range-listing';
import { getRangePage, rangeParams } from '@/lib/catalogue';
import { pageMetadata } from '@/lib/seo';

type Params = { urlText: string };

export const dynamicParams = false;
export const generateStaticParams = rangeParams;

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { range } = getRangePage((await params).urlText);
  return pageMetadata({ title: `Wholesale ${range.name}`, description: range.description, path: range.path });
}

export default async function RangePage({ params }: { params: Promise<Params> }) {
  const page = getRangePage((await params).urlText);
  const trail = [
    { name: 'Home', path: '/' },
    { name: page.range.name, path: page.range.path },
  ];
  return (
    <>
      <Breadcrumbs trail={trail} />
      <h1>Wholesale {page.range.name}</h1>
      <p className="lead">{page.range.description}</p>
      <h2>Categories</h2>
      <ul className="categories">
        {page.categories.map((c) => (
          <li key={c.id}>
            <Link href={c.path}>{c.name}</Link> <span className="muted">({c.products})</span>
          </li>
        ))}
      </ul>
      <RangeListing path={page.range.path} name={page.range.name} range={page.range.url_text} featured={page.featured.length} filters={page.filters}>
        <ProductGrid products={gridCards(page.featured)} label={`Featured ${page.range.name}`} level={3} order firstRowEager />
      </RangeListing>
    </>
  );
}
