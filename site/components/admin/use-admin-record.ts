'use client';
import { useEffect, useState } from 'react';
import { ApiError, apiErrorText } from '@/lib/api';

/** Where a back-office record (an order, an account, a product) is. */
export type RecordState<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; text: string; notFound: boolean };

/** Loads one record for a page (the caller keys the component by the record's id).
 * reload reads it again (Try again, or Reload after a 409: the page shows Loading, so its
 * forms start again from what is read); replace shows what a write answered, without
 * reading it again (its forms stay, with what they said). */
export function useAdminRecord<T>(load: () => Promise<T>, failed: string) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<RecordState<T>>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    load()
      .then((data) => live && setState({ status: 'ready', data }))
      .catch(
        (err: unknown) => live && setState({ status: 'failed', text: apiErrorText(err, failed), notFound: err instanceof ApiError && err.status === 404 }),
      );
    return () => {
      live = false;
    };
    // One record per mounted component: only a reload loads it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt]);
  return {
    state,
    reload: () => setAttempt((n) => n + 1),
    replace: (data: T) => setState({ status: 'ready', data }),
  };
}
