'use client';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Page } from '@/lib/admin';
import { apiErrorText } from '@/lib/api';
import { cursorOf, pageAfter, pageBefore, readTrail, writeTrail, type CursorTrail } from '@/lib/cursor-pages';

const session = () => (typeof window === 'undefined' ? undefined : window.sessionStorage);

/** A back-office list paged by the API's cursors: list names it and its filters (a new
 * name is a new list, from its first page; the caller keys the component by it). The page
 * shown is kept for the session, so coming back from a row shows the same page. After
 * Previous or Next the focus goes to the list (the caller's table), which then holds the new
 * page. */
export function useCursorList<T>(
  list: string,
  load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
  failed: string,
  table: RefObject<HTMLElement | null>,
) {
  const [trail, setTrail] = useState<CursorTrail>(() => readTrail(session(), list));
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ trail: CursorTrail; attempt: number; page: Page<T> | null; error: string } | null>(null);
  const cursor = cursorOf(trail);
  useEffect(() => {
    const stop = new AbortController();
    const asked = trail;
    load(cursor, stop.signal)
      .then((page) => !stop.signal.aborted && setAnswer({ trail: asked, attempt, page, error: '' }))
      .catch((err: unknown) => !stop.signal.aborted && setAnswer({ trail: asked, attempt, page: null, error: apiErrorText(err, failed) }));
    return () => stop.abort();
    // The trail's cursor and position name the page; load and failed are the caller's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cursor, trail.at, attempt]);
  useEffect(() => writeTrail(session(), list, trail), [list, trail]);
  const current = answer && answer.trail === trail && answer.attempt === attempt ? answer : null;
  const next = current?.page?.next ?? null;
  const items = current?.page?.items ?? null;
  const paged = useRef(false);
  useEffect(() => {
    if (!paged.current || !items) return;
    paged.current = false;
    table.current?.focus();
  }, [items, table]);
  const go = (to: CursorTrail) => {
    paged.current = true;
    setTrail(to);
  };
  return {
    items,
    error: current?.error ?? '',
    loading: !current,
    pageNumber: trail.at + 1,
    hasPrevious: trail.at > 0,
    hasNext: next !== null,
    goNext: () => next && go(pageAfter(trail, next)),
    goPrevious: () => go(pageBefore(trail)),
    retry: () => setAttempt((n) => n + 1),
  };
}
