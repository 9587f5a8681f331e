import { AuthProblem } from './auth';
import { EMAIL_PROBLEM } from './validation';

/** Plain-English messages for the sign-in provider's error codes; a raw code is never
 * shown to a buyer. */
const messages: Record<string, string> = {
  'auth/wrong-password': 'That password is not right. Try again, or reset your password.',
  'auth/user-not-found': 'There is no trade account with that email. Check it, or register.',
  'auth/email-already-in-use': 'A trade account with that email already exists. Sign in instead, or reset your password.',
  'auth/too-many-requests': 'Too many attempts. Please wait a few minutes, or reset your password.',
  'auth/invalid-credential': 'The email or password is not right.',
  'auth/invalid-login-credentials': 'The email or password is not right.',
  'auth/network-request-failed': 'We could not reach the sign-in service. Check your connection and try again.',
  'auth/popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  'auth/invalid-api-key': 'Sign-in is not set up correctly on our side. Please contact us.',
  'auth/invalid-email': EMAIL_PROBLEM,
  'auth/weak-password': 'Choose a longer password.',
  'auth/password-does-not-meet-requirements': 'Choose a password that meets the rules shown.',
  'auth/requires-recent-login': 'For your security, enter your current password again.',
  'auth/user-disabled': 'This trade account has been closed. Please contact us.',
};

const fallback = 'Something went wrong. Please try again.';

/** The message for an error from the provider (anything with a code), or a general one. */
export function authErrorMessage(err: unknown): string {
  const code = typeof err === 'object' && err && 'code' in err ? String((err as { code: unknown }).code) : '';
  return messages[code] ?? fallback;
}

/** What to tell the buyer about a failed call of lib/auth.ts: an AuthProblem's own message
 * (written for the buyer), else the message for the provider's error code. */
export const authFailureText = (err: unknown): string => (err instanceof AuthProblem ? err.message : authErrorMessage(err));
