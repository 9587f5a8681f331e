/** The sign-in hint: a flag in localStorage saying whether someone was signed in on this
 * browser last time ('1' signed in, '0' signed out, absent on a first visit). The account
 * provider writes it whenever the sign-in SDK reports; it decides two things before the SDK
 * has spoken: whether the SDK loads at once or when the browser is idle, and whether the
 * header shows Register / Sign In at once (no hint) or keeps their place until the SDK says
 * who is signed in (hint), so a signed-in buyer never sees them flash. */
export const SIGNIN_HINT_KEY = 'tradeshop:signed-in';

/** The attribute the hint script sets on <html> when the hint says signed in. */
export const SIGNIN_HINT_ATTR = 'data-signin-hint';

/** Minimal storage the hint needs (localStorage in the browser). */
export interface HintStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Whether this browser was signed in last time. Storage that throws (blocked cookies,
 * some private modes) counts as no hint. */
export function hasSignInHint(store: HintStorage | undefined): boolean {
  try {
    return store?.getItem(SIGNIN_HINT_KEY) === '1';
  } catch {
    return false;
  }
}

/** Records what the sign-in SDK reported; a storage that throws is ignored. */
export function writeSignInHint(store: HintStorage | undefined, signedIn: boolean): void {
  try {
    store?.setItem(SIGNIN_HINT_KEY, signedIn ? '1' : '0');
  } catch {
    // Nothing to remember on this browser: the next page shows the signed-out links at once.
  }
}

/** A tiny inline script for <head>: it runs before the first paint and marks <html> when the
 * hint says signed in, so CSS can keep the prerendered Register / Sign In links hidden (but
 * holding their place) until the SDK has answered. Without the hint they show at once, with
 * no JavaScript needed. */
export const SIGNIN_HINT_SCRIPT = `try{if(localStorage.getItem(${JSON.stringify(SIGNIN_HINT_KEY)})==='1')document.documentElement.setAttribute(${JSON.stringify(SIGNIN_HINT_ATTR)},'')}catch(e){}`;
