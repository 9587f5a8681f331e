'use client';
import { useEffect } from 'react';
import { signedIn, signedOut } from '@/lib/account-store';
import { getFirebaseAuth, authSDK } from '@/lib/firebase';
import { reportError } from '@/lib/report';
import { syncSession } from '@/lib/token-sync';

/** Follows the provider's sign-in state (SPEC.md section 4): on sign-in it fetches the
 * ID token and loads the basket and profile; on sign-out it empties the basket list.
 * The SDK is loaded after the page, so catalogue pages stay light. Renders nothing. */
export function AccountProvider() {
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let last: string | null = null;
    (async () => {
      const [auth, sdk] = await Promise.all([getFirebaseAuth(), authSDK()]);
      unsubscribe = sdk.onIdTokenChanged(auth, (user) => {
        if (user) {
          const first = last !== user.uid;
          last = user.uid;
          // getIdToken() answers a cached token and refreshes it before it expires.
          void signedIn({ uid: user.uid, email: user.email ?? '', displayName: user.displayName ?? '' }, () => user.getIdToken());
          if (first) void user.getIdToken().then((t) => syncSession('POST', t));
        } else {
          if (last) void syncSession('DELETE', null);
          last = null;
          signedOut();
        }
      });
    })().catch((err: unknown) => {
      reportError(err, { context: { where: 'sign-in provider' } });
      signedOut();
    });
    return () => unsubscribe?.();
  }, []);
  return null;
}
