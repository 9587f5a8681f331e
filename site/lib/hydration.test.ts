import { describe, expect, it } from 'vitest';
import { clearHydrationFailure, hydrationFailedAt, isHydrationError, subscribeHydration, watchHydration } from './hydration';

describe('isHydrationError', () => {
  it.each([
    // React 19's production words for a mismatch, as Next hands it to window.reportError.
    [
      new Error(
        'Minified React error #418; visit https://react.dev/errors/418?args[]=text&args[]= for the full message or use the non-minified dev environment for full errors and additional helpful warnings.',
      ),
      true,
    ],
    [new Error('Minified React error #423; visit https://react.dev/errors/423 for the full message'), true],
    [new Error("Hydration failed because the server rendered text didn't match the client."), true],
    ['There was an error while hydrating this Suspense boundary.', true],
    // A server-bailed Suspense boundary (useSearchParams) is not a failure, nor are others.
    [new Error('Minified React error #419; visit https://react.dev/errors/419'), false],
    [new Error('Minified React error #4180; visit'), false],
    [new Error('Failed to load chunk /_next/static/chunks/a.js'), false],
    [undefined, false],
  ])('%s -> %s', (reason, want) => {
    expect(isHydrationError(reason)).toBe(want);
  });
});

describe('watchHydration', () => {
  it('records the path whose hydration failed and tells the subscribers, once', () => {
    const listeners: ((e: { error?: unknown; message?: string }) => void)[] = [];
    const win = { location: { pathname: '/help/faq/' }, addEventListener: (_: string, fn: never) => listeners.push(fn) };
    watchHydration(win as unknown as Window);
    let told = 0;
    const stop = subscribeHydration(() => told++);
    listeners.forEach((fn) => fn({ error: new Error('Cannot read properties of undefined') }));
    expect(hydrationFailedAt()).toBeNull();
    listeners.forEach((fn) => fn({ error: new Error('Minified React error #418; visit https://react.dev/errors/418') }));
    expect(hydrationFailedAt()).toBe('/help/faq/');
    listeners.forEach((fn) => fn({ message: "Hydration failed because the server rendered HTML didn't match the client." }));
    expect(told).toBe(1);
    stop();
    clearHydrationFailure();
    expect(hydrationFailedAt()).toBeNull();
  });
});
