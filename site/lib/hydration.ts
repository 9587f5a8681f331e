/** React's hydration failures, as the production build words them (minified codes 418:
 * the server HTML did not match, 422/423: an error while hydrating, recovered by rendering
 * on the client; 425: React 18's text mismatch) and as the development build does. */
const hydrationError =
  /Minified React error #(418|422|423|425)\b|Hydration failed|error while hydrating|didn't match the client|did not match server-rendered/i;

/** Whether an error (or an error event's message) is a failed hydration. */
export function isHydrationError(reason: unknown): boolean {
  if (typeof reason === 'string') return hydrationError.test(reason);
  if (reason && typeof reason === 'object') {
    const m = (reason as { message?: unknown }).message;
    return typeof m === 'string' && hydrationError.test(m);
  }
  return false;
}

/* A page whose hydration failed is still drawn: React throws the server's HTML away and
 * renders on the client, then hands the error to Next's onRecoverableError, which passes
 * it to window.reportError: an 'error' event on window. The listener must be in place
 * before hydration ends, so it is installed when the page guard's module loads (before
 * React renders anything), not in an effect, which would run after the event. */
let failedAt: string | null = null;
const listeners = new Set<() => void>();

/** The path whose hydration failed on this page load, or null. */
export const hydrationFailedAt = () => failedAt;

/** Forgets the failure (the buyer has moved on to another page). */
export function clearHydrationFailure(): void {
  failedAt = null;
}

export function subscribeHydration(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

let watching = false;

/** Starts listening for hydration failures on this window (once). */
export function watchHydration(win: Pick<Window, 'addEventListener' | 'location'>): void {
  if (watching) return;
  watching = true;
  win.addEventListener('error', (e) => {
    if (failedAt !== null || !isHydrationError(e.error ?? e.message)) return;
    failedAt = win.location.pathname;
    for (const fn of listeners) fn();
  });
}
