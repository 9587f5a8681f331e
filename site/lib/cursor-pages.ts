/** Where a list paged by cursors is (the back office's lists: the API answers a page and
 * the cursor of the next one, never of the one before). The trail keeps the cursor of every
 * page seen so far, so Previous goes back without asking the server for one: cursors[0]
 * is the first page's (null), cursors[at] the page shown. */
export interface CursorTrail {
  cursors: (string | null)[];
  at: number;
}

export const firstPage = (): CursorTrail => ({ cursors: [null], at: 0 });

/** The cursor of the page shown. */
export const cursorOf = (t: CursorTrail): string | null => t.cursors[t.at] ?? null;

/** The trail on the page after the one shown, whose cursor is next. */
export function pageAfter(t: CursorTrail, next: string): CursorTrail {
  return { cursors: [...t.cursors.slice(0, t.at + 1), next], at: t.at + 1 };
}

/** The trail on the page before the one shown (the first page stays the first). */
export function pageBefore(t: CursorTrail): CursorTrail {
  return { cursors: t.cursors, at: Math.max(0, t.at - 1) };
}

/** Minimal storage a trail is kept in (sessionStorage in the browser). */
export interface TrailStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const storageKey = (list: string) => `admin:pages:${list}`;

/** The trail kept for a list (its name and filters), so coming back to the list from one of
 * its rows shows the same page; the first page when none is kept, or it is not a trail. */
export function readTrail(store: TrailStorage | undefined, list: string): CursorTrail {
  try {
    const t = JSON.parse(store?.getItem(storageKey(list)) ?? 'null') as Partial<CursorTrail> | null;
    const ok =
      t &&
      Array.isArray(t.cursors) &&
      t.cursors.length > 0 &&
      t.cursors[0] === null &&
      t.cursors.slice(1).every((c) => typeof c === 'string' && c !== '') &&
      Number.isInteger(t.at) &&
      t.at! >= 0 &&
      t.at! < t.cursors.length;
    return ok ? { cursors: t.cursors!, at: t.at! } : firstPage();
  } catch {
    return firstPage();
  }
}

/** Keeps a list's trail; a storage that throws (private modes) keeps nothing. */
export function writeTrail(store: TrailStorage | undefined, list: string, t: CursorTrail): void {
  try {
    store?.setItem(storageKey(list), JSON.stringify(t));
  } catch {
    // Nothing kept: coming back shows the first page.
  }
}
