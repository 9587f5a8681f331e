'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useState } from 'react';

/** The header's product search: GET /search/ with one field, q. On the results page
 * it keeps the query that was searched. */
export function SearchForm() {
  const id = useId();
  const pathname = usePathname();
  const [q, setQ] = useState('');
  useEffect(() => {
    setQ(pathname === '/search/' ? (new URLSearchParams(window.location.search).get('q') ?? '') : '');
  }, [pathname]);
  return (
    <form role="search" action="/search/" method="get" className="search-form">
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input id={id} name="q" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search cards, SKUs, ranges" autoComplete="off" />
      <button type="submit">Search</button>
    </form>
  );
}
