'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { accountPending, signedIn, signedOut } from '@/lib/account-store';
import { chunkReloadPending, isChunkLoadError } from '@/lib/chunk-reload';
import { followSignIn, onAuthWanted } from '@/lib/auth';
import { reportError } from '@/lib/report';
import { SIGNIN_HINT_KEY, hasSignInHint, writeSignInHint } from '@/lib/signin-hint';
import { toaster } from '@/lib/toaster';
import { syncSession } from '@/lib/token-sync';

/** The pages that need to know who is signed in whoever visits them: sign in, register,
 * the account pages, checkout and the back office. Every other page (home, ranges,
 * categories, products, help, search) is a catalogue page a signed-out visitor reads
 * without the sign-in SDK. */
export const needsAccount = (pathname: string) => /^\/(account|checkout|admin)(\/|$)/.test(pathname);

/** Follows the provider's sign-in state (SPEC.md section 4): on sign-in it fetches the
 * ID token and loads the basket and profile; on sign-out it empties the basket list.
 *
 * The Firebase Auth SDK loads only when it is needed (docs/accounts.md, "When the sign-in
 * code loads"): at once when the sign-in hint (lib/signin-hint.ts) says this browser was
 * signed in, on a page that needs the account (needsAccount, including a client navigation
 * to one), when a form asks for it (lib/auth.ts onAuthWanted), or when another tab signs
 * in. Otherwise a catalogue page counts the visitor as signed out at once and downloads no
 * sign-in code. Renders nothing. */
export function AccountProvider() {
  const pathname = usePathname();
  const needed = needsAccount(pathname);
  const startRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let last: string | null = null;
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      accountPending();
      void start();
    };
    startRef.current = begin;
    const stopWanted = onAuthWanted(begin);
    const onStorage = (e: StorageEvent) => {
      if (e.key === SIGNIN_HINT_KEY && hasSignInHint(localStorage)) begin();
    };
    window.addEventListener('storage', onStorage);
    if (hasSignInHint(localStorage) || needsAccount(window.location.pathname)) begin();
    else signedOut();
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
        started = false; // a form that asks again may load it
        signedOut();
      }
    }
    async function listen() {
      unsubscribe = await followSignIn((user) => {
        writeSignInHint(localStorage, !!user);
        if (user) {
          const first = last !== user.uid;
          last = user.uid;
          const { tokens, ...who } = user;
          void signedIn(who, tokens);
          if (first) void tokens().then((t) => syncSession('POST', t));
        } else {
          if (last) void syncSession('DELETE', null);
          last = null;
          signedOut();
        }
      });
    }
    return () => {
      startRef.current = null;
      stopWanted();
      window.removeEventListener('storage', onStorage);
      unsubscribe?.();
    };
  }, []);

  // A client navigation from a catalogue page to one that needs the account.
  useEffect(() => {
    if (needed) startRef.current?.();
  }, [needed]);
  return null;
}
