import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('./api', () => ({
  apiFetch: async (path: string) => {
    calls.push(path);
    return path === '/api/getProfile'
      ? { business: 'Meadow Cards', email: 'a@b.co', telephone: '', optInMarketing: 0, active_coupon_id: '', dsc: '' }
      : [{ id: 1 }];
  },
}));

const { accountPending, accountState, signedIn, signedOut } = await import('./account-store');

describe('signedIn', () => {
  beforeEach(() => {
    signedOut();
    calls.length = 0;
  });

  it('loads the basket and profile when the state becomes signed in, not again for the same buyer', async () => {
    await signedIn({ uid: 'u1', email: 'a@b.co', displayName: '' }, async () => 't1');
    expect(calls.sort()).toEqual(['/api/getProfile', '/api/shoppingCartSmall']);
    expect(accountState().profileStatus).toBe('ready');

    // A refreshed token after an email change: the user updates, nothing reloads.
    await signedIn({ uid: 'u1', email: 'new@b.co', displayName: '' }, async () => 't2');
    expect(calls).toHaveLength(2);
    expect(accountState().user).toEqual({ uid: 'u1', email: 'new@b.co', displayName: '' });
    expect(accountState().profile?.business).toBe('Meadow Cards');
  });

  it('loads again for another buyer', async () => {
    await signedIn({ uid: 'u1', email: 'a@b.co', displayName: '' }, async () => 't1');
    await signedIn({ uid: 'u2', email: 'c@d.co', displayName: '' }, async () => 't3');
    expect(calls).toHaveLength(4);
  });
});

describe('accountPending', () => {
  it('puts a page that counted the visitor signed out back to waiting while the SDK loads, and leaves a signed-in buyer alone', async () => {
    signedOut();
    expect(accountState().status).toBe('ready');
    accountPending();
    expect(accountState()).toMatchObject({ status: 'loading', user: 0 });

    await signedIn({ uid: 'u1', email: 'a@b.co', displayName: '' }, async () => 't1');
    accountPending();
    expect(accountState()).toMatchObject({ status: 'ready', user: { uid: 'u1' } });
  });
});
