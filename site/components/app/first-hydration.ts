'use client';
import { useState } from 'react';

// Issue 40 "Hydrate less". Markup a signed-out visitor only reads (the header menu's 62
// category links, a product grid's cards) need not be hydrated: React can keep the server's
// HTML of an element and make no fibers for what is inside it, when the element is
// rendered with an empty dangerouslySetInnerHTML (React leaves a server's inner HTML as it
// is when it hydrates one). That is right only in the page's first hydration, where the
// HTML is the server's: a component mounted later (a client navigation, a filter's new
// grid) has no server HTML to keep and renders in full.

let firstHydrationDone = false;

/** AppBehaviours calls this from its first effect: effects run once the first hydration
 * has committed, so every component hydrated in it has read the flag before. */
export function firstHydrationCommitted(): void {
  firstHydrationDone = true;
}

/** Whether to keep this element's server HTML unhydrated: only when the component was
 * first rendered in the page's first hydration (never on the server, which renders
 * everything), and only while `keepWhile` holds; once it has not held, the component
 * renders in full for the rest of its life (its server HTML is gone by then). */
export function useKeepServerHTML(keepWhile: boolean): boolean {
  const [keep, setKeep] = useState(() => typeof window !== 'undefined' && !firstHydrationDone);
  // React's pattern for state derived from a render's inputs: set during the render.
  if (keep && !keepWhile) setKeep(false);
  return keep && keepWhile;
}

/** The props that keep an element's server HTML unhydrated: its inner HTML stays what the
 * server sent (React does not compare it), and React makes no fibers for it. */
export const keepServerHTML = { dangerouslySetInnerHTML: { __html: '' }, suppressHydrationWarning: true } as const;
