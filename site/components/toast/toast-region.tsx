'use client';
import { useSyncExternalStore } from 'react';
import { TOAST_POSITIONS, type Toast } from '@/lib/toast';
import { toaster } from '@/lib/toaster';

const none: readonly Toast[] = [];
const subscribe = (fn: () => void) => toaster.subscribe(fn);
const snapshot = () => toaster.list();

/** Renders the open toasts at their positions. A live region that is always in the
 * page announces each new toast to screen readers. */
export function ToastRegion() {
  const toasts = useSyncExternalStore(subscribe, snapshot, () => none);
  const latest = toasts[toasts.length - 1];
  return (
    <>
      <div className="sr-only" aria-live="assertive" aria-atomic="true">
        {latest ? [latest.header, latest.message].filter(Boolean).join('. ') : ''}
      </div>
      {TOAST_POSITIONS.map((pos) => {
        const here = toasts.filter((t) => t.position === pos);
        if (here.length === 0) return null;
        return (
          <div key={pos} className={`toast-stack toast-${pos}`}>
            {here.map((t) => (
              <div key={t.id} className={`toast toast-style-${t.style}`} data-toast-id={t.id}>
                <div className="toast-text">
                  {t.header && <p className="toast-header">{t.header}</p>}
                  {t.message && <p className="toast-message">{t.message}</p>}
                </div>
                <button type="button" className="toast-close" aria-label="Close notification" onClick={() => toaster.close(t.id)}>
                  ×
                </button>
              </div>
            ))}
          </div>
        );
      })}
    </>
  );
}
