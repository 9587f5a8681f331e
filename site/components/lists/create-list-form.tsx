'use client';
import { useId, useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { apiErrorText, fieldProblems } from '@/lib/api';
import { createList, listNameProblem, type SavedList } from '@/lib/lists';

/** A list name and a button that creates the list: empty, or with the basket's lines
 * (fromBasket). The name is checked before anything is sent. */
export function CreateListForm({
  onCreated,
  fromBasket = false,
  button = 'Create list',
}: {
  onCreated: (l: SavedList) => void;
  fromBasket?: boolean;
  button?: string;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const wrong = listNameProblem(name);
    setNameProblem(wrong ?? '');
    setError('');
    if (wrong) return;
    setBusy(true);
    try {
      const l = await createList(name, { fromBasket });
      setName('');
      onCreated(l);
    } catch (err) {
      const named = fieldProblems(err).name;
      if (named) setNameProblem(named);
      else setError(apiErrorText(err, 'The list could not be saved. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="list-name-form" onSubmit={(e) => void submit(e)} noValidate>
      <Field id={id} label="List name" value={name} onChange={(e) => setName(e.target.value)} error={nameProblem} autoComplete="off" />
      <button type="submit" className="button" disabled={busy} aria-busy={busy}>
        {busy ? 'Saving…' : button}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
