import { accountState, idToken, subscribeAccount } from './account-store';
import { apiFetch } from './api';
import type { AlertAnswer, AlertsAnswer } from './api-types';

// Back-in-stock alerts (docs/alerts.md): the signed-in buyer's alerts, read once with GET
// /api/alerts and kept here for every product page and the dashboard; each ask and remove
// answers the whole list, which replaces it. The pages are static, so this is the only
// place a page learns whether the buyer is waiting for a product.

/** One of the buyer's alerts: the product's name and page as they are now; in_stock when
 * it is back (its email is on its way). */
export type StockAlert = AlertAnswer;

/** The buyer's alerts: idle until asked for, loading, ready, or error (the list could not
 * be read; alerts keeps what was last read). */
export interface AlertsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  alerts: StockAlert[];
}

const idle: AlertsState = { status: 'idle', alerts: [] };
let state: AlertsState = idle;
const listeners = new Set<() => void>();
/** Bumped when the buyer changes: an answer for the buyer who left is not kept. */
let generation = 0;

export const alertsState = (): AlertsState => state;
export const serverAlertsState = (): AlertsState => idle;
export function subscribeAlerts(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function set(next: AlertsState) {
  state = next;
  for (const fn of listeners) fn();
}

/** Whether the buyer has an alert for sku. */
export const hasAlert = (s: AlertsState, sku: string): boolean => s.alerts.some((a) => a.sku === sku);

const bearer = async () => ({ Authorization: `Bearer ${await idToken()}` });

/** Reads the buyer's alerts, once per buyer (again when again, after an error). */
export function requestAlerts(again = false): void {
  if (state.status === 'loading' || (state.status === 'ready' && !again) || (state.status === 'error' && !again)) return;
  const asked = generation;
  set({ ...state, status: 'loading' });
  void (async () => {
    try {
      const a = await apiFetch<AlertsAnswer>('/api/alerts', { method: 'GET', headers: await bearer() });
      if (asked === generation) set({ status: 'ready', alerts: a.alerts ?? [] });
    } catch {
      // The product pages and the dashboard say so and offer to try again.
      if (asked === generation) set({ ...state, status: 'error' });
    }
  })();
}

/** Asks to be emailed when sku is back in stock; the list answered replaces the one kept.
 * A refusal (in stock, discontinued, too many alerts) throws its ApiError, whose message
 * is the sentence to show. */
export async function askAlert(sku: string): Promise<void> {
  const asked = generation;
  const a = await apiFetch<AlertsAnswer>('/api/alerts', { csrf: true, body: { token: await idToken(), sku } });
  if (asked === generation) set({ status: 'ready', alerts: a.alerts ?? [] });
}

/** Removes the buyer's alert for sku; the list answered replaces the one kept. */
export async function removeAlert(sku: string): Promise<void> {
  const asked = generation;
  const a = await apiFetch<AlertsAnswer>('/api/alerts/remove', { csrf: true, body: { token: await idToken(), sku } });
  if (asked === generation) set({ status: 'ready', alerts: a.alerts ?? [] });
}

/* The alerts are one buyer's: when the signed-in buyer changes they are forgotten (as
 * lib/own-prices.ts forgets prices, following the account store). */
let heldFor: string | null = null;
subscribeAccount(() => {
  const { user } = accountState();
  const uid = user === 0 ? null : user.uid;
  if (uid === heldFor) return;
  heldFor = uid;
  generation++;
  set(idle);
});
