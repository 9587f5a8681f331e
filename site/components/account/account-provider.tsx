'use client';
import { useEffect } from 'react';
import { signedIn, signedOut } from '@/lib/account-store';
import { chunkReloadPending, isChunkLoadError } from '@/lib/chunk-reload';
import { getFirebaseAuth, authSDK } from '@/lib/firebase';
import { reportError } from '@/lib/report';
import { hasSignInHint, writeSignInHint } from '@/lib/signin-hint';
import { toaster } from '@/lib/toaster';
import { syncSession } from '@/lib/token-sync';

/** The sign-in hint (lib/signin-hint.ts) remembers whether someone was signed in on this
 * browser, so the next visit can load the sign-in SDK at once; first visits (and crawlers)
 * load it when the browser is idle. */
function whenIdle(fn: () => void): () => void {
  if (hasSignInHint(localStorage)) {
    fn();
    return () => undefined;
  }
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(fn, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const t = globalThis.setTimeout(fn, 1500);
  return () => globalThis.clearTimeout(t);
}

/** Follows the provider's sign-in state (SPEC.md section 4): on sign-in it fetches the
 * ID token and loads the basket and profile; on sign-out it empties the basket list.
 * The SDK loads after the page (at once for a returning signed-in buyer, else when the
 * browser is idle), so catalogue pages stay light. Renders nothing. */
export function AccountProvider() {
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let last: string | null = null;
    const cancel = whenIdle(() => void start());
    async function start() {
      try {
        await listen();
      } catch (err) {
        if (isChunkLoadError(err)) {
          // The SDK's code did not arrive: lib/firebase.ts has reported it and reloads the
          // page. Until then nobody is shown signed out; if the guard allowed no reload,
          // the buyer learns why there is no sign-in.
          if (chunkReloadPending()) return;
          toaster.show({ header: 'Sign-in could not load', message: 'Check your connection, then reload the page to sign in.' });
        } else {
          reportError(err, { context: { where: 'sign-in provider' } });
        }
        signedOut();
      }
    }
    async function listen() {
      const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
      unsubscribe = sdk.onIdTokenChanged(auth, (user) => {
        writeSignInHint(localStorage, !!user);
        if (user) {
          const first = last !== user.uid;
          last = user.uid;
          // getIdToken() answers a cached token and refreshes it before it expires;
          // getIdToken(true) asks the provider for a new one (account-store's profile fallback).
          void signedIn({ uid: user.uid, email: user.email ?? '', displayName: user.displayName ?? '' }, (refresh) => user.getIdToken(refresh));
          if (first) void user.getIdToken().then((t) => syncSession('POST', t));
        } else {
          if (last) void syncSession('DELETE', null);
          last = null;
          signedOut();
        }
      });
    }
    return () => {
      cancel();
      unsubscribe?.();
    };
  }, []);
  return null;
}
