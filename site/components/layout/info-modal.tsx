'use client';
import { useId, useRef, type ReactNode } from 'react';
import { trapFocus } from './trap-focus';

/** The header's information modal: a title, a body and a Close button. Focus stays
 * inside while it is open; Escape or Close shuts it and focus returns to its button. */
export function InfoModal({ label, title, children }: { label: string; title: string; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  return (
    <>
      <button ref={opener} type="button" className="info-button" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog
        ref={dialog}
        className="info-modal"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={(e) => trapFocus(dialog.current, e)}
        onClose={() => opener.current?.focus()}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>{children}</div>
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </dialog>
    </>
  );
}
