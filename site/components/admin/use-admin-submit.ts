'use client';
import { useState } from 'react';
import { ApiError, apiErrorText, fieldProblems } from '@/lib/api';
import { isConflict } from '@/lib/admin';
import { ownField } from '@/lib/admin-forms';

/** How a back-office write went: done (the sentence to say), refused because the thing
 * changed or cannot move now (409: the server's sentence; the page offers Reload), or
 * failed (the sentence; retry sends it again where that can help). */
export type Outcome = { kind: 'done'; text: string } | { kind: 'conflict'; text: string } | { kind: 'failed'; text: string; retry: (() => void) | null } | null;

/** The one way the back office's forms and buttons send: busy while a write is out (a
 * second press does nothing), the field problems of a 400 keyed by the API's own field
 * names, and the outcome. send does the write and answers what to say when it worked. */
export function useAdminSubmit() {
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit(send: () => Promise<string>, fallback: string): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
    setOutcome(null);
    try {
      const text = await send();
      setProblems({});
      setOutcome({ kind: 'done', text });
      return true;
    } catch (err) {
      const fields = Object.fromEntries(Object.entries(fieldProblems(err)).map(([f, p]) => [ownField(f), p]));
      setProblems(fields);
      if (isConflict(err)) setOutcome({ kind: 'conflict', text: (err as ApiError).message });
      // A 400's first problem is said here too: it may name a field the page does not show.
      else if (Object.keys(fields).length) setOutcome({ kind: 'failed', text: apiErrorText(err, fallback), retry: null });
      else {
        // A refusal the same request would meet again is said without Try again.
        const final = err instanceof ApiError && [400, 403, 404].includes(err.status);
        setOutcome({ kind: 'failed', text: apiErrorText(err, fallback), retry: final ? null : () => void submit(send, fallback) });
      }
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** Forgets the outcome and the problems (after a reload, or a new start). */
  function reset() {
    setOutcome(null);
    setProblems({});
  }

  return { busy, problems, setProblems, outcome, submit, reset };
}
