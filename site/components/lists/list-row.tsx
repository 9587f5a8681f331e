'use client';
import Link from '@/components/app/link';
import { useEffect, useRef, useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { changedText, deleteList, linesText, listHref, summaryOf, type ListSummary } from '@/lib/lists';
import { RenameList } from './rename-list';

/** One list of the index: its name (a link to it), lines and when it last changed, with
 * Rename and Delete. Delete asks first, in the row: Delete list or Keep it. */
export function ListRow({ list: l, onRenamed, onDeleted }: { list: ListSummary; onRenamed: (l: ListSummary) => void; onDeleted: (l: ListSummary) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    (confirming ? confirm : opener).current?.focus();
  }, [confirming]);
  const ask = (yes: boolean) => {
    moved.current = true;
    setError('');
    setConfirming(yes);
  };
  async function remove() {
    setBusy(true);
    setError('');
    try {
      await deleteList(l.id);
      onDeleted(l);
    } catch (err) {
      setError(apiErrorText(err, 'The list could not be deleted. Please try again.'));
      setBusy(false);
    }
  }
  return (
    <tr data-list={l.id}>
      <th scope="row">
        <Link href={listHref(l.id)}>{l.name}</Link>
      </th>
      <td data-label="Lines">{linesText(l.lines)}</td>
      <td data-label="Last changed">{changedText(l.updated_at)}</td>
      <td className="list-actions">
        <RenameList id={l.id} name={l.name} onRenamed={(saved) => onRenamed(summaryOf(saved))} />
        {confirming ? (
          <span className="list-confirm" role="group" aria-label={`Delete ${l.name}?`}>
            <span>Delete “{l.name}”?</span>{' '}
            <button ref={confirm} type="button" className="button" onClick={() => void remove()} disabled={busy} aria-busy={busy}>
              Delete list
            </button>{' '}
            <button type="button" className="link-button" onClick={() => ask(false)} disabled={busy}>
              Keep it
            </button>
          </span>
        ) : (
          <button ref={opener} type="button" className="link-button" onClick={() => ask(true)} aria-label={`Delete ${l.name}`}>
            Delete
          </button>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
