'use client';
import { useEffect, useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { adminMe, isStaffRefusal } from '@/lib/admin';

/** Where the check of a signed-in user's staff access is. */
export type StaffCheck = { state: 'checking' } | { state: 'staff'; email: string } | { state: 'refused' } | { state: 'failed'; text: string };

/** Checks that the signed-in user (uid; '' while nobody is) is staff: a fresh ID token, so a
 * claim granted since the last one counts, then GET /api/admin/me. retry checks again. */
export function useStaff(uid: string): { check: StaffCheck; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ uid: string; attempt: number; check: StaffCheck } | null>(null);
  useEffect(() => {
    if (!uid) return;
    let live = true;
    adminMe()
      .then((me) => live && setResult({ uid, attempt, check: { state: 'staff', email: me.email } }))
      .catch((err: unknown) => {
        if (!live) return;
        const check: StaffCheck = isStaffRefusal(err)
          ? { state: 'refused' }
          : { state: 'failed', text: apiErrorText(err, 'Your access could not be checked.') };
        setResult({ uid, attempt, check });
      });
    return () => {
      live = false;
    };
  }, [uid, attempt]);
  const check: StaffCheck = result && result.uid === uid && result.attempt === attempt ? result.check : { state: 'checking' };
  return { check, retry: () => setAttempt((n) => n + 1) };
}
