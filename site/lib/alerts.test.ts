import { describe, expect, it, vi } from 'vitest';
import type { AccountState } from './account-store';

type Call = { path: string; opts: { method?: string; body?: unknown; csrf?: boolean }; answer: (v: unknown) => void; fail: (e: unknown) => void };
const calls: Call[] = [];
vi.mock('./api', () => ({
  apiFetch: (path: string, opts: Call['opts']) => new Promise((answer, fail) => calls.push({ path, opts, answer, fail })),
}));

/** A stand-in for the account store: the state and its listeners, which the test moves. */
const account = vi.hoisted(() => ({ user: 0 as AccountState['user'], listeners: new Set<() => void>() }));
vi.mock('./account-store', () => ({
  idToken: async () => 't',
  accountState: () => ({ user: account.user }),
  subscribeAccount: (fn: () => void) => {
    account.listeners.add(fn);
    return () => account.listeners.delete(fn);
  },
}));
function becomes(user: AccountState['user']) {
  account.user = user;
  for (const fn of account.listeners) fn();
}

const { alertsState, askAlert, hasAlert, removeAlert, requestAlerts } = await import('./alerts');
const alert = { sku: 'GC101-00001', name: 'Robin cards', path: '/robin-cards/', created_at: 1, in_stock: false };

describe('stock alerts', () => {
  it('reads the list once for the buyer, and the writes replace it with their answer', async () => {
    becomes({ uid: 'u1', email: 'a@example.com', displayName: 'A' });
    requestAlerts();
    requestAlerts(); // a second product page: the same call
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(alertsState().status).toBe('loading');
    const read = calls.shift()!;
    expect(read.path).toBe('/api/alerts');
    expect(read.opts.method).toBe('GET');
    read.answer({ alerts: [] });
    await vi.waitFor(() => expect(alertsState().status).toBe('ready'));
    requestAlerts();
    expect(calls).toHaveLength(0);

    const asked = askAlert(alert.sku);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const ask = calls.shift()!;
    expect(ask.path).toBe('/api/alerts');
    expect(ask.opts).toMatchObject({ csrf: true, body: { token: 't', sku: alert.sku } });
    ask.answer({ alerts: [alert] });
    await asked;
    expect(hasAlert(alertsState(), alert.sku)).toBe(true);

    const removed = removeAlert(alert.sku);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const remove = calls.shift()!;
    expect(remove.path).toBe('/api/alerts/remove');
    remove.answer({ alerts: [] });
    await removed;
    expect(hasAlert(alertsState(), alert.sku)).toBe(false);
  });

  it('says a failed read, keeps it until asked again, and forgets the list when the buyer leaves', async () => {
    becomes({ uid: 'u2', email: 'b@example.com', displayName: 'B' });
    expect(alertsState().status).toBe('idle');
    requestAlerts();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls.shift()!.fail(new Error('offline'));
    await vi.waitFor(() => expect(alertsState().status).toBe('error'));
    requestAlerts();
    expect(calls).toHaveLength(0);
    requestAlerts(true);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls.shift()!.answer({ alerts: [alert] });
    await vi.waitFor(() => expect(alertsState().alerts).toEqual([alert]));
    becomes(0);
    expect(alertsState()).toEqual({ status: 'idle', alerts: [] });
  });
});
