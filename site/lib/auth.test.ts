import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from './account-store';

// The Firebase SDK is faked where lib/auth.ts meets it (lib/firebase.ts's getFirebaseAuth
// and authSDK), and the account store where the workflows hand it the result: the tests
// read what the module asks of each, in order.

/** Every call made to the fake SDK, the user or the account store, as [name, ...args]. */
const calls = vi.hoisted(() => [] as unknown[][]);

/** A fake signed-in Firebase user. */
function fakeUser(over: Partial<{ uid: string; email: string | null; displayName: string | null; emailVerified: boolean; claimVerified: boolean }> = {}) {
  const u = {
    uid: 'u1',
    email: 'buyer@meadow.test' as string | null,
    displayName: 'Meadow Cards' as string | null,
    emailVerified: false,
    claimVerified: false,
    ...over,
  };
  return {
    ...u,
    getIdToken: vi.fn(async (refresh?: boolean) => {
      calls.push(['getIdToken', refresh]);
      return refresh ? 'fresh-token' : 'token';
    }),
    getIdTokenResult: async () => ({ claims: { email_verified: u.claimVerified } }),
  };
}
type FakeUser = ReturnType<typeof fakeUser>;

const fake = vi.hoisted(() => ({
  auth: { currentUser: null as unknown },
  /** What the next SDK call named here fails with. */
  failures: {} as Record<string, Error>,
  minPasswordLength: undefined as number | undefined,
  listener: null as ((u: unknown) => void) | null,
}));

vi.mock('./firebase', () => {
  const sdkCall =
    (name: string, answer?: (...args: unknown[]) => unknown) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args.filter((a) => a !== fake.auth)]);
      const failure = fake.failures[name];
      if (failure) throw failure;
      return answer?.(...args);
    };
  const sdk = {
    signInWithEmailAndPassword: sdkCall('signInWithEmailAndPassword'),
    signOut: sdkCall('signOut'),
    sendPasswordResetEmail: sdkCall('sendPasswordResetEmail'),
    validatePassword: sdkCall('validatePassword', () => ({ passwordPolicy: { customStrengthOptions: { minPasswordLength: fake.minPasswordLength } } })),
    createUserWithEmailAndPassword: sdkCall('createUserWithEmailAndPassword', (_a, email) => {
      fake.auth.currentUser = fakeUser({ uid: 'new', email: email as string, displayName: null });
      return { user: fake.auth.currentUser };
    }),
    updateProfile: sdkCall('updateProfile'),
    reauthenticateWithCredential: sdkCall('reauthenticateWithCredential'),
    EmailAuthProvider: { credential: (email: string, password: string) => ({ email, password }) },
    updateEmail: sdkCall('updateEmail'),
    reload: sdkCall('reload'),
    sendEmailVerification: sdkCall('sendEmailVerification'),
    onIdTokenChanged: (_a: unknown, fn: (u: unknown) => void) => {
      fake.listener = fn;
      return () => {
        fake.listener = null;
      };
    },
  };
  return { getFirebaseAuth: async () => fake.auth, authSDK: async () => sdk, onAuthWanted: () => () => undefined };
});

const store = vi.hoisted(() => ({ profile: null as Profile | null }));
vi.mock('./account-store', () => ({
  loadProfile: async () => {
    calls.push(['loadProfile']);
    return store.profile;
  },
  saveProfile: async (p: unknown) => {
    calls.push(['saveProfile', p]);
    return p;
  },
  signedIn: async (user: unknown, tokens: (refresh?: boolean) => Promise<string>) => {
    calls.push(['signedIn', user, await tokens()]);
  },
}));

const auth = await import('./auth');
const { authFailureText } = await import('./auth-errors');
const profile: Profile = { business: 'Meadow Cards', email: 'buyer@meadow.test', telephone: '01632 960 123', optInMarketing: 1, active_coupon_id: '', dsc: '' };
const currentUser = () => fake.auth.currentUser as FakeUser;

beforeEach(() => {
  calls.length = 0;
  fake.auth.currentUser = null;
  fake.failures = {};
  fake.minPasswordLength = undefined;
  store.profile = null;
});

describe('lib/auth', () => {
  it('signs in and sends the reset email with the email trimmed and in lower case', async () => {
    await auth.signIn('  Buyer@Meadow.TEST ', 'pw');
    await auth.sendPasswordReset(' Buyer@Meadow.test', 'https://shop.test');
    await auth.signOut();
    expect(calls).toEqual([
      ['signInWithEmailAndPassword', 'buyer@meadow.test', 'pw'],
      ['sendPasswordResetEmail', 'buyer@meadow.test', { url: 'https://shop.test/account/login/' }],
      ['signOut'],
    ]);
  });

  it("answers the provider's minimum password length, and null when it gives none or cannot be asked", async () => {
    await expect(auth.passwordPolicy()).resolves.toBeNull();
    fake.minPasswordLength = 10;
    await expect(auth.passwordPolicy()).resolves.toEqual({ minLength: 10 });
    fake.failures.validatePassword = Object.assign(new Error('offline'), { code: 'auth/network-request-failed' });
    await expect(auth.passwordPolicy()).resolves.toBeNull();
  });

  it('registers: the sign-in, its display name, a fresh token, the account store told at once, then the profile', async () => {
    await auth.register({ business: ' Meadow Cards ', email: 'New@Meadow.test', password: 'secret123' });
    const user = currentUser();
    expect(calls).toEqual([
      ['createUserWithEmailAndPassword', 'new@meadow.test', 'secret123'],
      ['updateProfile', user, { displayName: 'Meadow Cards' }],
      ['getIdToken', true],
      ['getIdToken', undefined],
      ['signedIn', { uid: 'new', email: 'new@meadow.test', displayName: 'Meadow Cards' }, 'token'],
      ['saveProfile', { business: 'Meadow Cards', telephone: '', email: 'new@meadow.test', optInMarketing: 0 }],
    ]);
  });

  it("a failed registration stops where the provider refused, and its message is the code's", async () => {
    fake.failures.createUserWithEmailAndPassword = Object.assign(new Error('taken'), { code: 'auth/email-already-in-use' });
    const err = await auth.register({ business: 'Meadow Cards', email: 'a@b.test', password: 'secret123' }).catch((e: unknown) => e);
    expect(calls.map((c) => c[0])).toEqual(['createUserWithEmailAndPassword']);
    expect(authFailureText(err)).toBe('A trade account with that email already exists. Sign in instead, or reset your password.');
  });

  it('changes the sign-in email: re-authenticates, changes it, refreshes the token, then saves the profile with it', async () => {
    fake.auth.currentUser = fakeUser();
    await expect(auth.changeSignInEmail({ newEmail: ' Shop@Meadow.test ', password: 'pw', profile })).resolves.toBe('shop@meadow.test');
    const user = currentUser();
    expect(calls).toEqual([
      ['reauthenticateWithCredential', user, { email: 'buyer@meadow.test', password: 'pw' }],
      ['updateEmail', user, 'shop@meadow.test'],
      ['getIdToken', true],
      ['saveProfile', { business: 'Meadow Cards', telephone: '01632 960 123', email: 'shop@meadow.test', optInMarketing: 1 }],
    ]);
  });

  it('loads the profile before changing the email when it has not arrived, and changes nothing without it', async () => {
    fake.auth.currentUser = fakeUser();
    store.profile = profile;
    await auth.changeSignInEmail({ newEmail: 'shop@meadow.test', password: 'pw', profile: null });
    expect(calls.map((c) => c[0])).toEqual(['loadProfile', 'reauthenticateWithCredential', 'updateEmail', 'getIdToken', 'saveProfile']);

    calls.length = 0;
    store.profile = null;
    const err = await auth.changeSignInEmail({ newEmail: 'shop@meadow.test', password: 'pw', profile: null }).catch((e: unknown) => e);
    expect(calls.map((c) => c[0])).toEqual(['loadProfile']);
    expect(authFailureText(err)).toBe('Your details could not be loaded, so your email was not changed. Please try again.');
  });

  it('a wrong current password changes nothing', async () => {
    fake.auth.currentUser = fakeUser();
    fake.failures.reauthenticateWithCredential = Object.assign(new Error('no'), { code: 'auth/wrong-password' });
    const err = await auth.changeSignInEmail({ newEmail: 'shop@meadow.test', password: 'bad', profile }).catch((e: unknown) => e);
    expect(calls.map((c) => c[0])).toEqual(['reauthenticateWithCredential']);
    expect(authFailureText(err)).toBe('That password is not right. Try again, or reset your password.');
  });

  it('signed out, the email change and the verification email say so and call nothing', async () => {
    for (const attempt of [auth.changeSignInEmail({ newEmail: 'x@y.test', password: 'pw', profile }), auth.resendVerificationEmail()]) {
      const err = await attempt.catch((e: unknown) => e);
      expect(authFailureText(err)).toBe('No user is currently signed in.');
    }
    await expect(auth.emailVerified()).resolves.toBeNull();
    expect(calls).toEqual([]);
  });

  it('asks the service whether the email is verified, refreshing the token only when it lags behind', async () => {
    fake.auth.currentUser = fakeUser({ emailVerified: false });
    await expect(auth.emailVerified()).resolves.toBe(false);
    expect(calls.map((c) => c[0])).toEqual(['reload']);

    calls.length = 0;
    fake.auth.currentUser = fakeUser({ emailVerified: true, claimVerified: false });
    await expect(auth.emailVerified()).resolves.toBe(true);
    expect(calls.map((c) => c.slice(0, 2))).toEqual([
      ['reload', currentUser()],
      ['getIdToken', true],
    ]);

    calls.length = 0;
    fake.auth.currentUser = fakeUser({ emailVerified: true, claimVerified: true });
    fake.failures.reload = new Error('offline'); // what the SDK holds stands
    await expect(auth.emailVerified()).resolves.toBe(true);
    expect(calls.map((c) => c[0])).toEqual(['reload']);
  });

  it('sends the verification email again and answers where it went', async () => {
    fake.auth.currentUser = fakeUser();
    await expect(auth.resendVerificationEmail()).resolves.toBe('buyer@meadow.test');
    expect(calls).toEqual([['sendEmailVerification', currentUser()]]);
  });

  it('follows the sign-in state with a token source per user, until unsubscribed', async () => {
    const seen: unknown[] = [];
    const stop = await auth.followSignIn((u) => seen.push(u && { ...u, token: u.tokens(true) }));
    fake.listener!(fakeUser({ displayName: null }));
    fake.listener!(null);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ uid: 'u1', email: 'buyer@meadow.test', displayName: '' });
    await expect((seen[0] as { token: Promise<string> }).token).resolves.toBe('fresh-token');
    expect(seen[1]).toBeNull();
    stop();
    expect(fake.listener).toBeNull();
  });
});
