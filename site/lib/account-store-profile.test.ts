import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Every API call the store makes, with its body; answers come from the queue by path. */
const calls: { path: string; body: unknown }[] = [];
const answers: Record<string, (() => unknown)[]> = {};
vi.mock('./api', () => ({
  apiFetch: async (path: string, opts: { body?: unknown }) => {
    calls.push({ path, body: opts.body });
    const next = answers[path]?.shift();
    if (!next) return path === '/api/shoppingCartSmall' ? [{ id: 1 }] : null;
    return next();
  },
}));
vi.mock('./report', () => ({ reportError: () => undefined, setReportUser: () => undefined }));

const { accountState, signedIn, signedOut } = await import('./account-store');

const stored = { business: 'Meadow Cards Ltd', email: 'buyer@meadow.test', telephone: '01632 960 123', optInMarketing: 1, active_coupon_id: '', dsc: '' };
const user = { uid: 'u1', email: 'Buyer@Meadow.test', displayName: 'Meadow Cards' };
const fail = () => {
  throw new Error('network down');
};
/** The tokens the store asked for: 'fresh' when it asked the provider for a new one. */
const tokens: string[] = [];
const tokenSource = async (refresh?: boolean) => {
  tokens.push(refresh ? 'fresh' : 'cached');
  return refresh ? 'fresh-token' : 'cached-token';
};
const profileCalls = () => calls.filter((c) => c.path !== '/api/shoppingCartSmall');

describe('profile fallback (SPEC.md section 4)', () => {
  beforeEach(() => {
    signedOut();
    calls.length = 0;
    tokens.length = 0;
    for (const k of Object.keys(answers)) delete answers[k];
  });

  it('after a failed fetch, asks getProfile again with a token fresh from the provider (which creates a missing profile) and never overwrites one', async () => {
    answers['/api/getProfile'] = [fail, () => stored];
    await signedIn(user, tokenSource);
    expect(profileCalls().map((c) => c.path)).toEqual(['/api/getProfile', '/api/getProfile']);
    expect(profileCalls()[1]!.body).toEqual({ token: 'fresh-token' });
    expect(accountState().profile).toEqual(stored);
    expect(accountState().profileStatus).toBe('ready');
  });

  it('when that fails too, the profile is an error the page offers to retry', async () => {
    answers['/api/getProfile'] = [fail, fail];
    await signedIn(user, tokenSource);
    expect(profileCalls().map((c) => c.path)).toEqual(['/api/getProfile', '/api/getProfile']);
    expect(accountState().profile).toBeNull();
    expect(accountState().profileStatus).toBe('error');
  });

  it('an answer with no business and no email is created from the display name and email, keeping its telephone and opt-in', async () => {
    const created = { ...stored, business: 'Meadow Cards', email: 'buyer@meadow.test', telephone: '01632 960 123', optInMarketing: 1 };
    answers['/api/getProfile'] = [() => ({ ...stored, business: '', email: '' })];
    answers['/api/profile'] = [() => created];
    await signedIn(user, tokenSource);
    expect(profileCalls().map((c) => c.path)).toEqual(['/api/getProfile', '/api/profile']);
    expect(profileCalls()[1]!.body).toEqual({
      payLoad: { business: 'Meadow Cards', email: 'buyer@meadow.test', telephone: '01632 960 123', optInMarketing: 1, token: 'cached-token' },
    });
    expect(accountState().profile).toEqual(created);
  });

  it('with no display name to make a business name of, the answer stands', async () => {
    const empty = { ...stored, business: '', email: '' };
    answers['/api/getProfile'] = [() => empty];
    await signedIn({ ...user, displayName: '' }, tokenSource);
    expect(profileCalls().map((c) => c.path)).toEqual(['/api/getProfile']);
    expect(accountState().profile).toEqual(empty);
    expect(accountState().profileStatus).toBe('ready');
  });

  it('a profile with a business or an email is kept as it is', async () => {
    answers['/api/getProfile'] = [() => ({ ...stored, business: '' })];
    await signedIn(user, tokenSource);
    expect(profileCalls().map((c) => c.path)).toEqual(['/api/getProfile']);
    expect(tokens).not.toContain('fresh');
  });
});
