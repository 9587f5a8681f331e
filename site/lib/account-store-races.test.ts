import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Every API call waits here until the test answers it, so answers can come back in any order. */
const pending: { path: string; answer: (v: unknown) => void; fail: (e: unknown) => void }[] = [];
vi.mock('./api', () => ({
  apiFetch: (path: string) => new Promise((answer, fail) => pending.push({ path, answer, fail })),
}));

const { accountState, loadBasket, loadProfile, saveProfile, signedIn, signedOut } = await import('./account-store');

const profile = (business: string) => ({ business, email: 'a@b.co', telephone: '', optInMarketing: 0, active_coupon_id: '', dsc: '' });
const take = async (path: string) => {
  await vi.waitFor(() => expect(pending.some((p) => p.path === path)).toBe(true));
  return pending.splice(
    pending.findIndex((p) => p.path === path),
    1,
  )[0]!;
};
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('overlapping loads', () => {
  beforeEach(async () => {
    signedOut();
    pending.length = 0;
    const done = signedIn({ uid: 'u1', email: 'a@b.co', displayName: '' }, async () => 't');
    (await take('/api/getProfile')).answer(profile('Meadow Cards'));
    (await take('/api/shoppingCartSmall')).answer([{ id: 1 }]);
    await done;
  });

  it('keeps the newer basket when the older answer arrives last', async () => {
    const older = loadBasket();
    const first = await take('/api/shoppingCartSmall');
    const newer = loadBasket();
    const second = await take('/api/shoppingCartSmall');
    second.answer([
      { id: 'GC1', quantity: 6 },
      { id: 'GC2', quantity: 12 },
    ]);
    await newer;
    first.answer([{ id: 1 }]); // the basket as it was before the add
    await older;
    expect(accountState().basket).toBe('populated');
    expect(accountState().cart.map((l) => l.id)).toEqual(['GC1', 'GC2']);
  });

  it('ignores an older basket load that fails after a newer one answered', async () => {
    const older = loadBasket();
    const first = await take('/api/shoppingCartSmall');
    const newer = loadBasket();
    (await take('/api/shoppingCartSmall')).answer([{ id: 'GC1', quantity: 6 }]);
    await newer;
    first.fail(new Error('network'));
    await older;
    expect(accountState().basket).toBe('populated');
  });

  it('keeps a saved profile over a load that was in flight when it was saved', async () => {
    const load = loadProfile();
    const inFlight = await take('/api/getProfile');
    const save = saveProfile({ business: 'Meadow Cards Ltd', telephone: '', email: 'a@b.co', optInMarketing: 0 });
    (await take('/api/profile')).answer(profile('Meadow Cards Ltd'));
    await save;
    inFlight.answer(profile('Meadow Cards'));
    await expect(load).resolves.toBeNull();
    expect(accountState().profile?.business).toBe('Meadow Cards Ltd');
    expect(accountState().profileStatus).toBe('ready');
  });

  it('drops answers that arrive after sign-out', async () => {
    const load = loadBasket();
    const inFlight = await take('/api/shoppingCartSmall');
    signedOut();
    inFlight.answer([{ id: 'GC1', quantity: 6 }]);
    await load;
    await settle();
    expect(accountState().user).toBe(0);
    expect(accountState().cart).toEqual([]);
    expect(accountState().basket).toBe('idle');
  });
});
