'use client';
import Link from '@/components/app/link';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { getLists, listHref, summaryOf, type ListSummary, type SavedList } from '@/lib/lists';
import { CreateListForm } from './create-list-form';
import { ListRow } from './list-row';

/** The buyer's saved lists, most recently changed first, each with its lines, when it last
 * changed, Rename and Delete; and a form that creates one. */
export function ListsIndex({ uid }: { uid: string }) {
  const [lists, setLists] = useState<ListSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<ReactNode>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const stop = new AbortController();
    getLists(stop.signal)
      .then((l) => setLists(l))
      .catch(() => !stop.signal.aborted && setFailed(true));
    return () => stop.abort();
  }, [uid, attempt]);

  /** Says what was done, and moves the focus there when the control that did it is gone. */
  const tell = (what: ReactNode, focus = false) => {
    setNotice(what);
    if (focus) requestAnimationFrame(() => noticeRef.current?.focus());
  };
  const created = (l: SavedList) => {
    setLists((have) => [summaryOf(l), ...(have ?? []).filter((x) => x.id !== l.id)]);
    tell(
      <>
        Created the list <Link href={listHref(l.id)}>{l.name}</Link>.
      </>,
    );
  };
  const renamed = (l: ListSummary) => {
    // In its place, not moved to the top: moving the row would take the focus from it.
    setLists((have) => (have ?? []).map((x) => (x.id === l.id ? l : x)));
    tell(`Renamed the list to “${l.name}”.`);
  };
  const deleted = (l: ListSummary) => {
    setLists((have) => (have ?? []).filter((x) => x.id !== l.id));
    tell(`Deleted the list “${l.name}”.`, true);
  };

  let body;
  if (failed) {
    body = (
      <LoadFailed
        what="Your saved lists could not be loaded."
        retry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
    );
  } else if (!lists) body = <p role="status">Loading your lists…</p>;
  else if (lists.length === 0)
    body = <p className="lists-empty">You have no saved lists yet. Create one below, use “Add to list” on a product, or save your basket as a list.</p>;
  else {
    body = (
      <table className="basket-table saved-lists">
        <caption className="sr-only">Your saved lists</caption>
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Lines</th>
            <th scope="col">Last changed</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lists.map((l) => (
            <ListRow key={l.id} list={l} onRenamed={renamed} onDeleted={deleted} />
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <>
      <h1>Saved lists</h1>
      <p role="status" className={notice ? 'form-ok lists-notice' : 'lists-notice'} ref={noticeRef} tabIndex={-1}>
        {notice}
      </p>
      {body}
      <section className="list-create" aria-labelledby="list-create-title">
        <h2 id="list-create-title">Create a list</h2>
        <CreateListForm onCreated={created} />
      </section>
    </>
  );
}
