'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api';
import { packsBoxes } from '@/lib/basket';
import { getList, packsLines, type SavedList } from '@/lib/lists';

/** Why a list could not be shown: not on the account (404: it does not exist or is another
 * account's), or any other failed load. */
export type ListProblem = 'not-found' | 'failed';

/** One of the signed-in buyer's lists and its packs boxes. change runs a write that answers
 * the list and shows the answer unless a later change has started meanwhile (changes can
 * overlap and answer out of order); after a failed change the list is loaded again, as it
 * is now, and the error goes to the caller. A box typed in and not submitted keeps what was
 * typed whatever answers (lib/basket.ts packsBoxes). */
export function useSavedList(id: string, uid: string) {
  const [list, setList] = useState<SavedList | null>(null);
  const [packs, setPacks] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<ListProblem | null>(null);
  const [attempt, setAttempt] = useState(0);
  const shown = useRef<SavedList | null>(null);
  const ticket = useRef(0);

  const show = useCallback((l: SavedList, submitted?: string) => {
    const before = shown.current;
    shown.current = l;
    setList(l);
    setPacks((typed) => packsBoxes(before && { lines: packsLines(before) }, { lines: packsLines(l) }, typed, submitted));
  }, []);

  useEffect(() => {
    const stop = new AbortController();
    getList(id, stop.signal)
      .then((l) => show(l))
      .catch((err: unknown) => !stop.signal.aborted && setProblem(err instanceof ApiError && err.status === 404 ? 'not-found' : 'failed'));
    return () => stop.abort();
  }, [id, uid, attempt, show]);

  const change = useCallback(
    async (work: () => Promise<SavedList>, submitted?: string): Promise<SavedList | null> => {
      const mine = ++ticket.current;
      try {
        const l = await work();
        if (mine !== ticket.current) return null; // a later change answers with a newer list
        show(l, submitted);
        return l;
      } catch (err) {
        getList(id)
          .then((l) => mine === ticket.current && show(l))
          .catch(() => {});
        throw err;
      }
    },
    [id, show],
  );
  /** Shows a list a write outside change answered (a rename). */
  const saved = useCallback(
    (l: SavedList) => {
      ticket.current++;
      show(l);
    },
    [show],
  );
  /** Loads the list again as it is now (after "Add all to basket" the basket holds more). */
  const reload = useCallback(() => {
    const mine = ticket.current;
    getList(id)
      .then((l) => mine === ticket.current && show(l))
      .catch(() => {});
  }, [id, show]);
  const typePacks = (sku: string, text: string) => setPacks((typed) => ({ ...typed, [sku]: text }));
  const retry = () => {
    setProblem(null);
    setAttempt((n) => n + 1);
  };
  return { list, packs, typePacks, problem, retry, change, saved, reload };
}
