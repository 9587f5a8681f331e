import { reportError } from './report';

/** A chunk-load failure reloads a page at most once in this many ms per path. */
export const CHUNK_RELOAD_GUARD_MS = 10_000;

const chunkError =
  /ChunkLoadError|Loading chunk [\w-]+ failed|Failed to load chunk|Loading CSS chunk|Failed to fetch dynamically imported module|error loading dynamically imported module/i;

/** Whether an error (or rejection reason) is a failed code-chunk load, from webpack
 * (`ChunkLoadError`) or Turbopack ('Failed to load chunk …'). */
export function isChunkLoadError(reason: unknown): boolean {
  if (!reason) return false;
  if (typeof reason === 'string') return chunkError.test(reason);
  if (typeof reason === 'object') {
    const e = reason as { name?: unknown; message?: unknown };
    return (typeof e.name === 'string' && chunkError.test(e.name)) || (typeof e.message === 'string' && chunkError.test(e.message));
  }
  return false;
}

/** Minimal storage the guard needs (sessionStorage in the browser). */
export interface GuardStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const key = (path: string) => `chunk-reload:${path}`;

/** Decides whether to reload path now, and records the reload if so. A second failure
 * within the guard window does not reload again, so a broken deploy cannot loop. */
export function claimChunkReload(store: GuardStorage, path: string, now: number): boolean {
  const last = Number(store.getItem(key(path)) ?? '0');
  if (Number.isFinite(last) && now - last < CHUNK_RELOAD_GUARD_MS && now >= last) return false;
  store.setItem(key(path), String(now));
  return true;
}

/** What the reload needs from the browser; tests give their own. */
export interface ReloadEnv {
  storage: GuardStorage;
  path: string;
  now: number;
  reload(): void;
}

const browserEnv = (): ReloadEnv => ({
  storage: window.sessionStorage,
  path: window.location.pathname,
  now: Date.now(),
  reload: () => window.location.reload(),
});

let reloading = false;

/** Whether a chunk failure has already started this page's reload. */
export const chunkReloadPending = () => reloading;

/** The one response to a failed code-chunk load, wherever it surfaces (an uncaught error,
 * an unhandled rejection, or a dynamic import a caller catches, such as the sign-in SDK):
 * report it and reload the page, unless the guard says this path reloaded less than 10 s
 * ago. Answers 'reloading' (also for any later failure while the reload is under way),
 * 'guarded' (no reload: the caller carries on as best it can) or 'other' (not a chunk
 * failure). */
export function reloadAfterChunkError(reason: unknown, env: () => ReloadEnv = browserEnv): 'reloading' | 'guarded' | 'other' {
  if (!isChunkLoadError(reason)) return 'other';
  if (reloading) return 'reloading';
  reportError(reason, { kind: 'chunk', context: { where: 'chunk load' } });
  const e = env();
  if (!claimChunkReload(e.storage, e.path, e.now)) return 'guarded';
  reloading = true;
  e.reload();
  return 'reloading';
}
