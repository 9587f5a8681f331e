import { reportError } from './report';

/** Where the optional token sync goes (POST on sign-in, DELETE on sign-out, the ID
 * token as bearer). Off unless the build sets NEXT_PUBLIC_TOKEN_SYNC_URL, for example
 * to /api/session. */
const syncURL = process.env.NEXT_PUBLIC_TOKEN_SYNC_URL || '';

/** Tells the configured URL about a sign-in or sign-out; failures are only reported. */
export async function syncSession(method: 'POST' | 'DELETE', token: string | null): Promise<void> {
  if (!syncURL) return;
  try {
    await fetch(syncURL, { method, credentials: 'same-origin', headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (err) {
    reportError(err, { context: { where: 'token sync' } });
  }
}
