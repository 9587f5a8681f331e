import { reportError } from './report';

/** How often an open, visible tab asks whether a new build is out (docs/site-shell.md). */
export const BUILD_POLL_MS = 60_000;

/** builds/latest.json */
export interface Latest {
  id: string;
  timestamp: number;
}

export type FetchLatest = (url: string) => Promise<Latest>;

const defaultFetchLatest: FetchLatest = async (url) => {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`builds/latest.json answered ${res.status}`);
  return (await res.json()) as Latest;
};

/** Watches builds/latest.json for a build other than the one the tab started on. A page
 * does not name its release (so two builds of the same code and data write the same bytes,
 * docs/build-and-release.md): the first answer, asked for as the page loads, is the
 * baseline. Once a different id is seen, newBuild() stays true and the next navigation does
 * a full page load. */
export class BuildWatcher {
  private seen: string | null = null;
  private current: string | null;

  constructor(
    currentId: string | null = null,
    private readonly fetchLatest: FetchLatest = defaultFetchLatest,
    private readonly now: () => number = Date.now,
  ) {
    this.current = currentId;
  }

  /** Asks once; a failure is only reported, never thrown. */
  async check(): Promise<boolean> {
    try {
      const latest = await this.fetchLatest(`/builds/latest.json?t=${this.now()}`);
      if (!latest.id) return this.newBuild();
      if (this.current === null) this.current = latest.id;
      else if (latest.id !== this.current) this.seen = latest.id;
    } catch (err) {
      reportError(err, { context: { where: 'build poll' } });
    }
    return this.newBuild();
  }

  /** The release the tab started on: null until the first answer. */
  currentId(): string | null {
    return this.current;
  }

  newBuild(): boolean {
    return this.seen !== null;
  }

  /** The id of the newer build seen, if any. */
  newerId(): string | null {
    return this.seen;
  }
}
