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

/** Watches builds/latest.json for a build other than the one this page came from. Once
 * one is seen, newBuild() stays true and the next navigation does a full page load. */
export class BuildWatcher {
  private seen: string | null = null;

  constructor(
    readonly currentId: string,
    private readonly fetchLatest: FetchLatest = defaultFetchLatest,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks once; a failure is only reported, never thrown. */
  async check(): Promise<boolean> {
    try {
      const latest = await this.fetchLatest(`/builds/latest.json?t=${this.now()}`);
      if (latest.id && latest.id !== this.currentId) this.seen = latest.id;
    } catch (err) {
      reportError(err, { context: { where: 'build poll' } });
    }
    return this.newBuild();
  }

  newBuild(): boolean {
    return this.seen !== null;
  }

  /** The id of the newer build seen, if any. */
  newerId(): string | null {
    return this.seen;
  }
}
