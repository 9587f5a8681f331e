import type { Metadata } from 'next';
import { CategoryProducts } from '@/components/catalogue/category-products';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { categoryParams, getCategoryPage } from '@/lib/catalogue';
import { CATEGORY_PAGE_SIZE } from '@/lib/paging';
import { pageMetadata } from '@/lib/seo';
import { gridCards, type CategoryPage as Data } from '@/lib/types';

type Params = { urltext: string; pageID: string };

export const dynamicParams = false;
export const generateStaticParams = categoryParams;

const trail = (p: Data) => [
  { name: 'Home', path: '/' },
  { name: p.range.name, path: p.range.path },
  { name: p.category.name, path: p.category.path },
];

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { urltext, pageID } = await params;
  const { category, range } = getCategoryPage(urltext, pageID);
  return pageMetadata({
    title: `Wholesale ${category.name}`,
    description: `${category.products} lines of ${category.name.toLowerCase()} at trade prices ex VAT, in retail packs, from our ${range.name.toLowerCase()} range.`,
    path: category.path,
  });
}

export default async function CategoryPage({ params }: { params: Promise<Params> }) {
  const { urltext, pageID } = await params;
  const page = getCategoryPage(urltext, pageID);
  return (
    <>
      <Breadcrumbs trail={trail(page)} />
      <h1>{page.category.name}</h1>
      <p className="lead">Trade prices per unit ex VAT; every line is sold in packs.</p>
      <CategoryProducts path={page.category.path} total={page.products.length} label={page.category.name} category={page.category.id} filters={page.filters}>
        <ProductGrid products={gridCards(page.products.slice(0, CATEGORY_PAGE_SIZE))} label={page.category.name} order firstRowEager />
      </CategoryProducts>
    </>
  );
}
