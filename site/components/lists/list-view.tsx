'use client';
import Link from '@/components/app/link';
import { useRef, useState } from 'react';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { packsOf, packsProblem } from '@/lib/basket';
import { changedText, linesText, unitsOf, updateList } from '@/lib/lists';
import { AddListToBasket } from './add-list-to-basket';
import { ListLineRow } from './list-line-row';
import { RenameList } from './rename-list';
import { useSavedList } from './use-saved-list';

const message = (err: unknown) => apiErrorText(err, 'Something went wrong. Please try again.');

/** One saved list (id, from ?id= on /account/lists/): its lines with the product, pack
 * size, availability and the buyer's pack price, quantities in packs to change, Remove,
 * each line's problem when it cannot be bought as it stands, Rename and Add all to basket.
 * A list the account does not have is said so. */
export function ListView({ id, uid }: { id: string; uid: string }) {
  const { list, packs, typePacks, problem, retry, change, saved, reload } = useSavedList(id, uid);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');
  /** A packs box's own problem, shown beside it, by SKU. */
  const [boxErrors, setBoxErrors] = useState<Record<string, string>>({});
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const back = (
    <p>
      <Link href="/account/lists/">All your saved lists</Link>
    </p>
  );
  if (problem === 'not-found') {
    return (
      <>
        <h1>Saved list</h1>
        <p className="form-error" role="alert">
          We could not find this list on your account. It may have been deleted.
        </p>
        {back}
      </>
    );
  }
  if (problem === 'failed') {
    return (
      <>
        <h1>Saved list</h1>
        <LoadFailed what="This list could not be loaded." retry={retry} />
        {back}
      </>
    );
  }
  if (!list) {
    return (
      <>
        <h1>Saved list</h1>
        <p role="status">Loading your list…</p>
      </>
    );
  }

  async function run(sku: string, units: number, done: string, focusNotice: boolean) {
    setError('');
    setNotice('');
    try {
      if (await change(() => updateList(id, { set: [{ sku, quantity: units }] }), sku)) setNotice(done);
      if (focusNotice) requestAnimationFrame(() => noticeRef.current?.focus());
    } catch (err) {
      setError(message(err));
    }
  }
  const setLinePacks = (sku: string, n: number, packSize: number) =>
    void run(sku, unitsOf(n, packSize), n === 0 ? 'Line removed.' : 'Quantity updated.', n === 0);
  const update = (sku: string, packSize: number) => {
    const typed = packs[sku] ?? '';
    const wrong = packsProblem(typed);
    setBoxErrors(({ [sku]: _, ...others }) => (wrong ? { ...others, [sku]: wrong } : others));
    if (wrong) {
      // The line is unchanged: its box shows its packs again, the problem names what was typed.
      const line = list!.lines.find((l) => l.sku === sku);
      if (line) typePacks(sku, packsOf({ sku, quantity: line.quantity, pack_size: packSize }));
      return;
    }
    setLinePacks(sku, Number(typed), packSize);
  };

  return (
    <>
      <h1>{list.name}</h1>
      {back}
      <div className="list-facts">
        <p className="muted">
          {linesText(list.lines.length)}
          {changedText(list.updated_at) && `, last changed ${changedText(list.updated_at)}`}
        </p>
        <RenameList
          id={list.id}
          name={list.name}
          onRenamed={(l) => {
            saved(l);
            setError('');
            setNotice(`Renamed the list to “${l.name}”.`);
          }}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p role="status" className={notice ? 'form-ok lists-notice' : 'lists-notice'} ref={noticeRef} tabIndex={-1}>
        {notice}
      </p>
      {list.lines.length === 0 ? (
        <p className="lists-empty">
          This list has no lines yet. Use “Add to list” on a product page, a category or search results to add products, or{' '}
          <Link href="/checkout/basket/">save your basket</Link> as a list.
        </p>
      ) : (
        <>
          <table className="basket-table list-lines">
            <caption className="sr-only">Lines of {list.name}</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Your pack price ex VAT</th>
                <th scope="col">Packs</th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.lines.map((l) => (
                <ListLineRow
                  key={l.sku}
                  line={l}
                  packs={packs[l.sku] ?? ''}
                  boxError={boxErrors[l.sku] ?? ''}
                  onType={(text) => typePacks(l.sku, text)}
                  onUpdate={() => l.product && update(l.sku, l.product.pack_size)}
                  onSetPacks={(n) => l.product && setLinePacks(l.sku, n, l.product.pack_size)}
                  onRemove={() => void run(l.sku, 0, 'Line removed.', true)}
                />
              ))}
            </tbody>
          </table>
          <AddListToBasket id={list.id} onDone={reload} />
        </>
      )}
    </>
  );
}
