import type { Auth } from 'firebase/auth';
import { isChunkLoadError, reloadAfterChunkError } from './chunk-reload';

// Firebase config comes from the build environment; locally it is the emulator's demo
// project, which never reaches Google.
const config = {
  apiKey: process.env.NEXT_PUBLIC_FIREBASE_API_KEY || 'demo-api-key',
  authDomain: process.env.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN || 'demo-tradeshop.firebaseapp.com',
  projectId: process.env.NEXT_PUBLIC_FIREBASE_PROJECT_ID || 'demo-tradeshop',
};
const emulatorURL = process.env.NEXT_PUBLIC_AUTH_EMULATOR_URL || '';

let auth: Promise<Auth> | undefined;
const wanted = new Set<() => void>();

/** Calls fn whenever something first asks for the Auth instance (a sign-in, register or
 * password form; the account provider itself): the account provider listens so that a
 * form that loads the SDK also starts the sign-in state. Answers the unsubscribe. */
export function onAuthWanted(fn: () => void): () => void {
  wanted.add(fn);
  return () => wanted.delete(fn);
}

/** A failed load of the SDK's code is a failed chunk load like any other: the page
 * reloads (once per 10 s per path, lib/chunk-reload.ts) rather than carrying on as if
 * nobody were signed in. The caller still gets the error. */
function sdkLoadFailed(err: unknown): never {
  reloadAfterChunkError(err);
  throw err;
}

/** The Firebase Auth instance, loaded on first use so pages that never need it do not
 * pay for the SDK up front. Points at the Auth emulator when the build says so. */
export function getFirebaseAuth(): Promise<Auth> {
  if (auth) return auth;
  auth = (async () => {
    const [{ initializeApp, getApps }, a] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = getApps()[0] ?? initializeApp(config);
    // initializeAuth, not getAuth: getAuth also installs the popup/redirect resolver, which
    // loads Google's gapi script on every page. The shop signs in with email and password
    // only, so it needs persistence and nothing else.
    const instance = a.initializeAuth(app, { persistence: [a.indexedDBLocalPersistence, a.browserLocalPersistence] });
    if (emulatorURL) a.connectAuthEmulator(instance, emulatorURL, { disableWarnings: true });
    return instance;
  })().catch((err: unknown) => {
    if (isChunkLoadError(err)) auth = undefined; // the code never arrived: a later call may try again
    return sdkLoadFailed(err);
  });
  for (const fn of wanted) fn();
  return auth;
}

/** The Firebase Auth functions, loaded with the instance. */
export const authSDK = () => import('firebase/auth').catch(sdkLoadFailed);
