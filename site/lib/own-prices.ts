import { accountState, idToken, subscribeAccount } from './account-store';
import { apiFetch } from './api';
import type { OwnPrice } from './api-types';
import { reportError } from './report';

/** A buyer's own prices of one unit and of one pack (pence ex VAT unless inc VAT):
 * pack_price is pack_size × unit_price, as a basket line of one pack is priced;
 * availability is the stock now (the static page's is as it was at build time). */
export type { OwnPrice } from './api-types';

const cache = new Map<string, OwnPrice>();
const pending = new Set<string>();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** Bumped on sign-out: prices asked for by the buyer who left are not kept when they answer. */
let generation = 0;

export const ownPrice = (sku: string): OwnPrice | undefined => cache.get(sku);
export function subscribeOwnPrices(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Asks for a SKU's own price; requests from one render are batched into one call. */
export function requestOwnPrice(sku: string): void {
  if (cache.has(sku) || pending.has(sku)) return;
  pending.add(sku);
  timer ??= setTimeout(() => void flush(), 30);
}

async function flush() {
  timer = undefined;
  const skus = [...pending];
  pending.clear();
  const asked = generation;
  try {
    for (let i = 0; i < skus.length; i += 100) {
      const { prices } = await apiFetch<{ prices: Record<string, OwnPrice> }>('/api/prices', {
        body: { token: await idToken(), skus: skus.slice(i, i + 100) },
      });
      if (asked !== generation) return;
      for (const [sku, p] of Object.entries(prices)) cache.set(sku, p);
    }
  } catch (err) {
    if (asked !== generation) return;
    reportError(err, { context: { where: 'own prices' } });
  }
  for (const fn of listeners) fn();
}

/** Forgets every own price (on sign-out). */
export function clearOwnPrices(): void {
  generation++;
  cache.clear();
  for (const fn of listeners) fn();
}

/* The prices are one buyer's: when the signed-in buyer changes (signing out, or another
 * buyer signing in) they are forgotten. This module follows the account store rather than
 * the store calling it, so the dependency runs one way (account-store knows no caches). */
let pricedFor: string | null = null;
subscribeAccount(() => {
  const { user } = accountState();
  const uid = user === 0 ? null : user.uid;
  if (uid === pricedFor) return;
  if (pricedFor !== null) clearOwnPrices();
  pricedFor = uid;
});
