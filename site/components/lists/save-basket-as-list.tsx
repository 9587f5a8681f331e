'use client';
import Link from '@/components/app/link';
import { useState } from 'react';
import { listHref, type SavedList } from '@/lib/lists';
import { CreateListForm } from './create-list-form';

/** The basket page's "Save basket as list": a name, and the basket's lines become a new
 * saved list; then it says so with a link to the list. */
export function SaveBasketAsList() {
  const [saved, setSaved] = useState<SavedList | null>(null);
  return (
    <section className="save-as-list" aria-labelledby="save-as-list-title">
      <h2 id="save-as-list-title">Save as a list</h2>
      <p className="muted">Keep these lines as a saved list to order again later.</p>
      <CreateListForm fromBasket button="Save basket as list" onCreated={setSaved} />
      <p role="status" className={saved ? 'form-ok' : undefined}>
        {saved && (
          <>
            Saved your basket as the list <Link href={listHref(saved.id)}>{saved.name}</Link>.
          </>
        )}
      </p>
    </section>
  );
}
