import type { ReactNode } from 'react';

/** What a listing shows while its filter index loads: the grid it had, dimmed and marked
 * busy under a loading note, so the page keeps its height and nothing jumps. */
export function StaleGrid({ children }: { children: ReactNode }) {
  return (
    <>
      <p className="muted">Loading products…</p>
      <div className="listing-stale" aria-busy="true">
        {children}
      </div>
    </>
  );
}
