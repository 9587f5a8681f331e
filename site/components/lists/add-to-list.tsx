'use client';
import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { useAccount } from '@/components/account/use-account';

// The form's code comes when a buyer first opens it: the catalogue pages carry the button
// only. React's lazy rather than next/dynamic, whose loader would weigh more than it saves.
const AddToListPanel = lazy(() => import('./add-to-list-panel').then((m) => ({ default: m.AddToListPanel })));

/** "Add to list" for one product (a product page, a grid card, a search result), signed in
 * only: a button that opens a small form (add-to-list-panel.tsx) in its place. Nothing is
 * asked of the API until it is opened. Escape or Cancel closes the form and the focus goes
 * back to the button; what was added is said beside it. */
export function AddToList({ sku, packSize, name }: { sku: string; packSize: number; name: string }) {
  const account = useAccount();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<ReactNode>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  if (account.user === 0) return null;
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <div className="add-to-list" data-sku={sku}>
      <button
        ref={toggle}
        type="button"
        className="link-button add-to-list-toggle"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Add to list: ${name}`}
        onClick={() => {
          setDone(null);
          if (open) close();
          else setOpen(true);
        }}
      >
        Add to list
      </button>
      {open && (
        <Suspense
          fallback={
            <p className="add-to-list-panel" role="status">
              Loading your lists…
            </p>
          }
        >
          <AddToListPanel
            id={panelId}
            sku={sku}
            packSize={packSize}
            name={name}
            onClose={close}
            onAdded={(said) => {
              setDone(said);
              close();
            }}
          />
        </Suspense>
      )}
      <p className="add-ok" role="status">
        {done}
      </p>
    </div>
  );
}
