import type { Auth, User as FirebaseUser } from 'firebase/auth';
import { loadProfile, saveProfile, signedIn, type Profile, type TokenSource } from './account-store';
import { authSDK, getFirebaseAuth } from './firebase';
import type { PasswordPolicy } from './validation';

// The shop's identity: every call the site makes to the sign-in provider (Firebase Auth) is
// here, and components call these functions, never the SDK. The SDK is not imported here
// (types only): lib/firebase.ts loads it on first use, so a page whose components import
// this module still downloads no sign-in code until one of these functions is called
// (docs/accounts.md, "When the sign-in code loads"). The messages for failures are in
// lib/auth-errors.ts, so the account provider, on every page, does not carry them.

export { onAuthWanted } from './firebase';

/** A failure whose message is written for the buyer, shown as it is (lib/auth-errors.ts
 * authFailureText). */
export class AuthProblem extends Error {}

/** The Auth instance and the SDK's functions, loaded together on first use. */
const loadAuth = () => Promise.all([getFirebaseAuth(), authSDK()]);

/** Emails are kept as the buyer typed them, trimmed and in lower case. */
const normalEmail = (email: string) => email.trim().toLowerCase();

/** The signed-in user, or an AuthProblem saying nobody is. */
function currentUser(auth: Auth): FirebaseUser {
  const user = auth.currentUser;
  if (!user) throw new AuthProblem('No user is currently signed in.');
  return user;
}

/** A signed-in user as the provider reports it, with the source of their ID tokens. */
export interface SignedInUser {
  uid: string;
  email: string;
  displayName: string;
  /** getIdToken() answers a cached token and refreshes it before it expires;
   * getIdToken(true) asks the provider for a new one (account-store's profile fallback). */
  tokens: TokenSource;
}

/** Follows the provider's sign-in state: calls onChange with the user at every sign-in,
 * token refresh and sign-out (null). Answers the unsubscribe once the SDK is listening. */
export async function followSignIn(onChange: (user: SignedInUser | null) => void): Promise<() => void> {
  const [auth, sdk] = await loadAuth();
  return sdk.onIdTokenChanged(auth, (user) => {
    onChange(user && { uid: user.uid, email: user.email ?? '', displayName: user.displayName ?? '', tokens: (refresh) => user.getIdToken(refresh) });
  });
}

/** Signs in with email and password. */
export async function signIn(email: string, password: string): Promise<void> {
  const [auth, sdk] = await loadAuth();
  await sdk.signInWithEmailAndPassword(auth, normalEmail(email), password);
}

/** Signs the buyer out. */
export async function signOut(): Promise<void> {
  const [auth, sdk] = await loadAuth();
  await sdk.signOut(auth);
}

/** Sends the password reset email, whose link leads back to sign-in on this site. */
export async function sendPasswordReset(email: string, origin = window.location.origin): Promise<void> {
  const [auth, sdk] = await loadAuth();
  await sdk.sendPasswordResetEmail(auth, normalEmail(email), { url: `${origin}/account/login/` });
}

/** The provider's password policy; null when it gives none (its minimum length is then 6)
 * or cannot be asked, so the form's own rule applies. */
export async function passwordPolicy(): Promise<PasswordPolicy | null> {
  try {
    const [auth, sdk] = await loadAuth();
    const status = await sdk.validatePassword(auth, '');
    const min = status.passwordPolicy.customStrengthOptions.minPasswordLength;
    return min ? { minLength: min } : null;
  } catch {
    return null;
  }
}

/** Registers a trade account: creates the sign-in, sets its display name to the business
 * name, hands the new user to the account store at once (the sign-in listener may still
 * be waiting for an idle moment) and saves the profile. */
export async function register({ business, email, password }: { business: string; email: string; password: string }): Promise<void> {
  const [auth, sdk] = await loadAuth();
  const name = business.trim();
  const { user } = await sdk.createUserWithEmailAndPassword(auth, normalEmail(email), password);
  await sdk.updateProfile(user, { displayName: name });
  await user.getIdToken(true);
  await signedIn({ uid: user.uid, email: user.email ?? '', displayName: name }, () => user.getIdToken());
  await saveProfile({ business: name, telephone: '', email: user.email ?? '', optInMarketing: 0 });
}

/** Changes the sign-in email: re-authenticates with the current password, changes the
 * email with the provider, refreshes the ID token (so the API sees the new email), then
 * saves it to the profile. The profile is saved again with the new email, so it must be
 * here (given, or loaded now) before anything changes. Answers the new email. */
export async function changeSignInEmail({ newEmail, password, profile }: { newEmail: string; password: string; profile: Profile | null }): Promise<string> {
  const [auth, sdk] = await loadAuth();
  const current = currentUser(auth);
  if (!current.email) throw new AuthProblem('No user is currently signed in.');
  const saved = profile ?? (await loadProfile());
  if (!saved) throw new AuthProblem('Your details could not be loaded, so your email was not changed. Please try again.');
  await sdk.reauthenticateWithCredential(current, sdk.EmailAuthProvider.credential(current.email, password));
  const email = normalEmail(newEmail);
  await sdk.updateEmail(current, email);
  await current.getIdToken(true);
  await saveProfile({ business: saved.business, telephone: saved.telephone ?? '', email, optInMarketing: saved.optInMarketing });
  return email;
}

/** Whether the signed-in user's email address is verified, as the sign-in service says
 * now (so an address verified in another tab counts); null when nobody is signed in.
 * When it is verified but the ID token does not say so yet, the token is refreshed, so
 * the API sees email_verified at once. Offline, it answers what the SDK holds. */
export async function emailVerified(): Promise<boolean | null> {
  const [auth, sdk] = await loadAuth();
  const user = auth.currentUser;
  if (!user) return null;
  await sdk.reload(user).catch(() => undefined);
  if (user.emailVerified && (await user.getIdTokenResult()).claims.email_verified !== true) await user.getIdToken(true);
  return user.emailVerified;
}

/** Sends the verification email again; answers the address it went to (null when the
 * sign-in has none). */
export async function resendVerificationEmail(): Promise<string | null> {
  const [auth, sdk] = await loadAuth();
  const user = currentUser(auth);
  await sdk.sendEmailVerification(user);
  return user.email;
}
