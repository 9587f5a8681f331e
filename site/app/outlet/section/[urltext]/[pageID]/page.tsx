import type { Metadata } from 'next';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { ProductGrid } from '@/components/catalogue/product-grid';
import { categoryParams, getCategoryPage } from '@/lib/catalogue';

type Params = { urltext: string; pageID: string };

export const dynamicParams = false;
export const generateStaticParams = categoryParams;

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { urltext, pageID } = await params;
  const { category, range } = getCategoryPage(urltext, pageID);
  return {
    title: `Wholesale ${category.name}`,
    description: `${category.products} lines of ${category.name.toLowerCase()} in trade packs from our ${range.name.toLowerCase()} range.`,
  };
}

export default async function CategoryPage({ params }: { params: Promise<Params> }) {
  const { urltext, pageID } = await params;
  const page = getCategoryPage(urltext, pageID);
  return (
    <>
      <Breadcrumbs
        trail={[
          { name: 'Home', path: '/' },
          { name: page.range.name, path: page.range.path },
          { name: page.category.name, path: page.category.path },
        ]}
      />
      <h1>{page.category.name}</h1>
      <p className="lead">
        {page.products.length} lines, prices per unit ex VAT, sold in packs.
      </p>
      <ProductGrid products={page.products} label={page.category.name} />
    </>
  );
}
