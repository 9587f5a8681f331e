'use client';
import { useSyncExternalStore } from 'react';
import { londonToday } from '@/lib/forward';

const never = () => () => {};
const today = () => londonToday();
const unknown = () => null;

/** London's date today (YYYY-MM-DD) in the browser; null while the page is built and while
 * it hydrates, so the static HTML and the first render agree, and the browser's own day
 * takes over straight after. */
export function useLondonToday(): string | null {
  return useSyncExternalStore(never, today, unknown);
}
