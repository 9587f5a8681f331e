'use client';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** The header's information modal: a title, a body and a Close button. Focus stays
 * inside while it is open; Escape or Close shuts it and focus returns to its button. */
export function InfoModal({ label, title, children }: { label: string; title: string; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  const trap = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(focusable)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || !dialog.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <>
      <button ref={opener} type="button" className="info-button" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="info-modal" aria-labelledby={titleId} aria-describedby={bodyId} onKeyDown={trap} onClose={() => opener.current?.focus()}>
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>{children}</div>
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </dialog>
    </>
  );
}
