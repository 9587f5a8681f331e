import { apiFetch } from './api';
import type { CartLine, EmptyCartRow, ProfileAnswer as Profile } from './api-types';
import { reportError, setReportUser } from './report';

/** The signed-in user, or 0 when signed out (SPEC.md section 3). */
export type User = { uid: string; email: string; displayName: string } | 0;

// A basket line as POST /api/shoppingCartSmall answers it (pence; an empty basket is the
// one row EmptyCartRow), and the profile as POST /api/getProfile answers it: both
// generated from the Go answer types (api-types.ts).
export type { CartLine, ProfileAnswer as Profile } from './api-types';

export type BasketStatus = 'idle' | 'loading' | 'error' | 'empty' | 'populated';

/** Where the profile is: forms that edit it wait for 'ready', so nothing a buyer types is
 * overwritten when it arrives; 'error' offers a retry. */
export type ProfileStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Everything the account menu, basket widget and account pages read. */
export interface AccountState {
  /** 'loading' until the provider has said who is signed in. */
  status: 'loading' | 'ready';
  user: User;
  profile: Profile | null;
  profileStatus: ProfileStatus;
  cart: CartLine[];
  basket: BasketStatus;
  /** Set to 1 to make the basket reload; the store resets it to 0. */
  cartUpdated: 0 | 1;
}

/** The state before the provider has spoken (also the server render's). */
export const initialAccountState: AccountState = { status: 'loading', user: 0, profile: null, profileStatus: 'idle', cart: [], basket: 'idle', cartUpdated: 0 };
let state = initialAccountState;
const listeners = new Set<() => void>();

export const accountState = () => state;
export function subscribeAccount(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
function set(patch: Partial<AccountState>) {
  state = { ...state, ...patch };
  // Error reports carry a hash of the signed-in buyer's uid (lib/report.ts).
  if ('user' in patch) setReportUser(state.user === 0 ? null : state.user.uid);
  for (const fn of listeners) fn();
}

/** True when the first returned basket row has id 1: the API's "empty" answer. */
export const isEmptyCart = (rows: CartLine[] | EmptyCartRow[]): rows is EmptyCartRow[] => rows.length === 0 || rows[0]?.id === 1;

/** Asks the current user's ID token (the SDK refreshes it before it expires); refresh
 * asks the provider for a new one now. */
export type TokenSource = (refresh?: boolean) => Promise<string>;
let tokenSource: TokenSource | null = null;

/** The caller's ID token for an API body; throws when signed out. */
export async function idToken(refresh = false): Promise<string> {
  if (!tokenSource) throw new Error('No user is currently signed in');
  return tokenSource(refresh);
}

/* Loads can overlap: the basket loads at sign-in and again after an add, and the answers
 * may come back in either order. Each load takes a ticket and only the newest ticket's
 * answer is kept, so the basket as it was at sign-in never replaces the basket after the
 * add. Signing out and saving the profile void the tickets in flight. */
let basketTicket = 0;
let profileTicket = 0;

/** Reloads the basket list. */
export async function loadBasket(): Promise<void> {
  if (!tokenSource) return;
  const ticket = ++basketTicket;
  set({ basket: 'loading' });
  try {
    const rows = await apiFetch<CartLine[] | EmptyCartRow[]>('/api/shoppingCartSmall', { body: { token: await idToken() }, reportAs: 'basket' });
    if (ticket !== basketTicket) return;
    const empty = isEmptyCart(rows);
    set({ cart: empty ? [] : rows, basket: empty ? 'empty' : 'populated', cartUpdated: 0 });
  } catch (err) {
    if (ticket !== basketTicket) return;
    reportError(err, { kind: 'basket', context: { where: 'basket load' } });
    set({ basket: 'error', cartUpdated: 0 });
  }
}

/** Whether a profile answer names nobody: neither business nor email. */
const namesNobody = (p: Profile | null | undefined) => !p || (!p.business && !p.email);

/** Reloads the profile. Resolves to null when the load failed or a newer load or save
 * overtook it.
 *
 * SPEC.md section 4: when the fetch fails, or answers null business and email, the profile
 * is created from the identity provider's display name and email. getProfile itself
 * creates a missing profile from the ID token's name and email (a conditional write that
 * never replaces a stored profile), so after a failed fetch the site asks it again with a
 * token fresh from the provider: a stored profile the site could not read must not be
 * overwritten by one made up in the browser. An answer that names nobody (the token
 * carried neither name nor email) is completed with POST /api/profile from the signed-in
 * user's display name and email, keeping the answer's telephone and opt-in. */
export async function loadProfile(): Promise<Profile | null> {
  if (!tokenSource) return null;
  const ticket = ++profileTicket;
  set({ profileStatus: 'loading' });
  let profile: Profile | null;
  try {
    profile = await fetchProfile(false).catch((err: unknown) => {
      if (ticket !== profileTicket) throw err;
      reportError(err, { context: { where: 'profile load' } });
      return fetchProfile(true);
    });
  } catch (err) {
    if (ticket !== profileTicket) return null;
    reportError(err, { context: { where: 'profile load' } });
    set({ profileStatus: state.profile ? 'ready' : 'error' });
    return null;
  }
  if (ticket !== profileTicket) return null;
  if (namesNobody(profile)) {
    try {
      profile = (await createProfile(profile)) ?? profile;
    } catch (err) {
      reportError(err, { context: { where: 'profile create' } }); // the answer stands
    }
    if (ticket !== profileTicket) return null;
  }
  set(profile ? { profile, profileStatus: 'ready' } : { profileStatus: state.profile ? 'ready' : 'error' });
  return profile;
}

const fetchProfile = async (refresh: boolean) => apiFetch<Profile>('/api/getProfile', { body: { token: await idToken(refresh) } });

/** Creates the profile of an answer that names nobody from the signed-in user's display
 * name and email; null when the user has no name that can be a business name (2 to 100
 * characters), so there is nothing to create it from. */
async function createProfile(answer: Profile | null): Promise<Profile | null> {
  const user = state.user;
  const business = user === 0 ? '' : user.displayName.trim();
  if (user === 0 || !user.email || business.length < 2 || business.length > 100) return null;
  return apiFetch<Profile>('/api/profile', {
    csrf: true,
    body: {
      payLoad: {
        business,
        email: user.email.toLowerCase(),
        telephone: answer?.telephone ?? '',
        optInMarketing: answer?.optInMarketing ?? 0,
        token: await idToken(),
      },
    },
  });
}

/** Marks the basket changed: the basket reloads and the flag returns to 0. */
export function setCartUpdated(): void {
  set({ cartUpdated: 1 });
  void loadBasket();
}

/** Called when the provider reports a signed-in user. When the state becomes signed in
 * (SPEC.md section 4), the basket and profile load. The same buyer reported again (a
 * token refresh, a changed email or name) only updates the user: reloading then would
 * race a save in flight, such as the email change's profile save. */
export async function signedIn(user: Exclude<User, 0>, tokens: TokenSource): Promise<void> {
  tokenSource = tokens;
  if (state.user !== 0 && state.user.uid === user.uid) {
    set({ user });
    return;
  }
  set({ status: 'ready', user, profile: null, profileStatus: 'loading' });
  await Promise.all([loadBasket(), loadProfile()]);
}

/** Called when the sign-in SDK starts loading on a page that counted the visitor as
 * signed out without it: until it answers, the state is 'loading' again, so an account
 * page waits rather than saying "signed out" to a buyer who may be signed in. */
export function accountPending(): void {
  if (state.status === 'ready' && state.user === 0) set({ status: 'loading' });
}

/** Called when the provider reports no user: the basket list is emptied (and the caches
 * of the buyer who left, such as lib/own-prices.ts, follow the state and empty too). */
export function signedOut(): void {
  tokenSource = null;
  basketTicket++;
  profileTicket++;
  set({ ...initialAccountState, status: 'ready' });
}

/** Saves the buyer's profile (POST /api/profile) and keeps the answer as the profile. */
export async function saveProfile(p: { business: string; telephone: string; email: string; optInMarketing: number }): Promise<Profile> {
  const profile = await apiFetch<Profile>('/api/profile', { csrf: true, body: { payLoad: { ...p, token: await idToken() } } });
  profileTicket++; // a load in flight may have read the profile before this save
  set({ profile, profileStatus: 'ready' });
  return profile;
}

/** What the shop calls a signed-in buyer: the business name, else the sign-in's display
 * name, else the email ('' when signed out). */
export const buyerName = (s: AccountState): string => (s.user === 0 ? '' : s.profile?.business || s.user.displayName || s.user.email);

/** The two flags of the View Your Basket rule (docs/accounts.md): the basket has lines,
 * or the buyer is in checkout. The link shows for a signed-in user when either holds. */
export function showViewYourBasket(s: AccountState, pathname: string): boolean {
  const hasLines = s.basket === 'populated' && s.cart.length > 0;
  const inCheckout = pathname.startsWith('/checkout/');
  return s.user !== 0 && !!s.user.uid && (hasLines || inCheckout);
}
