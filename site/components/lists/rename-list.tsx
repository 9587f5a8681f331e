'use client';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { apiErrorText, fieldProblems } from '@/lib/api';
import { listNameProblem, updateList, type SavedList } from '@/lib/lists';

/** A list's Rename button, which opens a name box in its place: Save renames, Cancel (or
 * Escape) puts the button back, and the focus goes back to it. */
export function RenameList({ id, name, onRenamed }: { id: string; name: string; onRenamed: (l: SavedList) => void }) {
  const inputId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState(name);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  /** Where the focus goes once the form has opened or closed. */
  const focusNext = useRef<'input' | 'opener' | null>(null);
  useEffect(() => {
    if (focusNext.current === 'input') input.current?.focus();
    if (focusNext.current === 'opener') opener.current?.focus();
    focusNext.current = null;
  }, [open]);

  const show = (yes: boolean) => {
    focusNext.current = yes ? 'input' : 'opener';
    setTyped(name);
    setProblem('');
    setOpen(yes);
  };
  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const wrong = listNameProblem(typed);
    setProblem(wrong ?? '');
    if (wrong) return;
    setBusy(true);
    try {
      const l = await updateList(id, { name: typed.trim() });
      focusNext.current = 'opener';
      setOpen(false);
      onRenamed(l);
    } catch (err) {
      setProblem(fieldProblems(err).name ?? apiErrorText(err, 'The list could not be renamed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button ref={opener} type="button" className="link-button" onClick={() => show(true)} aria-label={`Rename ${name}`}>
        Rename
      </button>
    );
  }
  return (
    <form className="rename-list" onSubmit={(e) => void save(e)} onKeyDown={(e) => e.key === 'Escape' && show(false)} noValidate>
      <label htmlFor={inputId}>New name for {name}</label>
      <input
        ref={input}
        id={inputId}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${inputId}-error` : undefined}
      />
      <button type="submit" className="button" disabled={busy} aria-busy={busy}>
        Save name
      </button>
      <button type="button" className="link-button" onClick={() => show(false)}>
        Cancel
      </button>
      {problem && (
        <p id={`${inputId}-error`} className="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
