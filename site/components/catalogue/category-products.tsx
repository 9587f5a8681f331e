'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { CATEGORY_PAGE_SIZE, pageFromSearch } from '@/lib/paging';
import { payloadURL } from '@/lib/prefetch';
import { reportError } from '@/lib/report';
import type { CategoryPage, ProductCard } from '@/lib/types';
import { Pager } from './pager';
import { ProductGrid } from './product-grid';

/** A category's products, 48 a page. The static HTML holds page 1 (children); other
 * pages (?page=N) are drawn from the page's own _payload.json. */
export function CategoryProducts({ path, total, label, children }: { path: string; total: number; label: string; children: ReactNode }) {
  const pages = Math.max(1, Math.ceil(total / CATEGORY_PAGE_SIZE));
  const pathname = usePathname();
  const [page, setPage] = useState(1);
  const [products, setProducts] = useState<ProductCard[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const sync = () => setPage(pageFromSearch(window.location.search, pages));
    sync();
    window.addEventListener('popstate', sync);
    return () => window.removeEventListener('popstate', sync);
  }, [pages, pathname]);

  useEffect(() => {
    if (page === 1 || products) return;
    // The prefetcher's URL for the same payload (lib/prefetch), so a prefetched copy serves.
    fetch(payloadURL(path, document.documentElement.dataset.code ?? '') ?? `${path}_payload.json`)
      .then((r) => (r.ok ? (r.json() as Promise<CategoryPage>) : Promise.reject(new Error(`payload answered ${r.status}`))))
      .then((p) => setProducts(p.products))
      .catch((err: unknown) => {
        reportError(err, { context: { where: 'category page' } });
        setFailed(true);
      });
  }, [page, path, products]);

  const from = (page - 1) * CATEGORY_PAGE_SIZE;
  let grid: ReactNode = children;
  if (page > 1) {
    if (failed) grid = <p role="alert">This page of products could not be loaded. Please try again.</p>;
    else if (!products) grid = <p role="status">Loading products…</p>;
    else grid = <ProductGrid products={products.slice(from, from + CATEGORY_PAGE_SIZE)} label={`${label}, page ${page}`} order />;
  }
  return (
    <>
      <p className="muted" aria-live="polite">
        {total === 0 ? 'No products in this category yet.' : `Showing ${from + 1} to ${Math.min(from + CATEGORY_PAGE_SIZE, total)} of ${total} lines`}
      </p>
      {grid}
      <Pager page={page} pages={pages} label="Pages" href={(n) => (n === 1 ? path : `${path}?page=${n}`)} onPick={setPage} />
    </>
  );
}
