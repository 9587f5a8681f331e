'use client';
import Link from '@/components/app/link';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { apiErrorText, fieldProblems } from '@/lib/api';
import { createList, getLists, linesText, listHref, listNameProblem, packsText, unitsOf, updateList, type ListSummary } from '@/lib/lists';

/** The list choice that makes a new list. */
const NEW_LIST = '';

/** The form of "Add to list" (add-to-list.tsx): packs (1 to start with, and the focus) and
 * one of the buyer's lists, most recently changed first and picked, or a new one with its
 * name. The lists load as it opens. onAdded gets the sentence saying what was added. */
export function AddToListPanel({
  id,
  sku,
  packSize,
  name,
  onClose,
  onAdded,
}: {
  id: string;
  sku: string;
  packSize: number;
  name: string;
  onClose: () => void;
  onAdded: (said: ReactNode) => void;
}) {
  const [lists, setLists] = useState<ListSummary[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [choice, setChoice] = useState<string | null>(null);
  const [packs, setPacks] = useState('1');
  const [newName, setNewName] = useState('');
  const [problem, setProblem] = useState<{ field: 'packs' | 'name' | 'form'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const firstField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    firstField.current?.focus();
  }, []);
  useEffect(() => {
    const stop = new AbortController();
    getLists(stop.signal)
      .then((l) => setLists(l))
      .catch(() => !stop.signal.aborted && setLoadFailed(true));
    return () => stop.abort();
  }, [attempt]);

  const picked = choice ?? lists?.[0]?.id ?? NEW_LIST;
  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy || !lists) return;
    const n = Number(packs.trim() || 'NaN');
    if (!Number.isInteger(n) || n < 1) {
      setProblem({ field: 'packs', text: 'Enter a whole number of packs, 1 or more.' });
      return;
    }
    const wrongName = picked === NEW_LIST ? listNameProblem(newName) : null;
    if (wrongName) {
      setProblem({ field: 'name', text: wrongName });
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const line = { sku, quantity: unitsOf(n, packSize) };
      const l = picked === NEW_LIST ? await createList(newName, { lines: [line] }) : await updateList(picked, { add: [line] });
      onAdded(
        <>
          Added {packsText(n)} to <Link href={listHref(l.id)}>{l.name}</Link>.
        </>,
      );
    } catch (err) {
      const named = fieldProblems(err).name;
      setProblem(named ? { field: 'name', text: named } : { field: 'form', text: apiErrorText(err, 'Could not add to the list. Please try again.') });
      setBusy(false);
    }
  }

  const errorId = (field: 'packs' | 'name') => (problem?.field === field ? `${id}-${field}-error` : undefined);
  return (
    <form
      id={id}
      className="add-to-list-panel"
      aria-label={`Add ${name} to a list`}
      onSubmit={(e) => void save(e)}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      noValidate
    >
      <label htmlFor={`${id}-packs`}>Packs of {packSize} for the list</label>
      <input
        ref={firstField}
        id={`${id}-packs`}
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        value={packs}
        onChange={(e) => setPacks(e.target.value)}
        aria-invalid={errorId('packs') ? true : undefined}
        aria-describedby={errorId('packs')}
      />
      {problem?.field === 'packs' && (
        <p id={errorId('packs')} className="field-error" role="alert">
          {problem.text}
        </p>
      )}
      {loadFailed ? (
        <p className="field-error" role="alert">
          Your lists could not be loaded.{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setLoadFailed(false);
              setAttempt((a) => a + 1);
            }}
          >
            Try again
          </button>
        </p>
      ) : !lists ? (
        <p role="status">Loading your lists…</p>
      ) : (
        <>
          <label htmlFor={`${id}-list`}>List</label>
          <select id={`${id}-list`} value={picked} onChange={(e) => setChoice(e.target.value)}>
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name} ({linesText(l.lines)})
              </option>
            ))}
            <option value={NEW_LIST}>New list…</option>
          </select>
          {picked === NEW_LIST && (
            <>
              <label htmlFor={`${id}-name`}>Name of the new list</label>
              <input
                id={`${id}-name`}
                value={newName}
                onChange={(e) => setNewName(e.target.value)}
                autoComplete="off"
                aria-invalid={errorId('name') ? true : undefined}
                aria-describedby={errorId('name')}
              />
              {problem?.field === 'name' && (
                <p id={errorId('name')} className="field-error" role="alert">
                  {problem.text}
                </p>
              )}
            </>
          )}
        </>
      )}
      {problem?.field === 'form' && (
        <p className="field-error" role="alert">
          {problem.text}
        </p>
      )}
      <span className="add-to-list-buttons">
        <button type="submit" className="button" disabled={busy || !lists} aria-busy={busy}>
          {busy ? 'Saving…' : 'Save to list'}
        </button>
        <button type="button" className="link-button" onClick={onClose}>
          Cancel
        </button>
      </span>
    </form>
  );
}
