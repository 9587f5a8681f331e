'use client';
import { useCallback, useMemo, useRef, useState } from 'react';
import { apiErrorText } from '@/lib/api';
import { addLines, checkLines, normalSku, type ReadLine, type SkuProduct } from '@/lib/quick-order';
import { edited, emptyRow, mergeRead, rowProduct, rowStatuses, unitsOf, withChecked, withEmptyLast, type Row } from '@/lib/quick-order-rows';

/** What the last add came to, for the page to say. */
export type AddNotice = { ok: true; added: number } | { ok: false; text: string };

/** The quick order's rows and what can be done to them: edit, check (POST /api/skus)
 * and add the good lines (POST /api/basket/addMany). Checks and the add are async and
 * may overlap with edits: each answer is kept only for the rows it was asked about that
 * have not changed since (a row's rev). */
export function useQuickOrder() {
  const keys = useRef(1);
  const nextKey = useCallback(() => keys.current++, []);
  const [rows, setRows] = useState<Row[]>(() => [emptyRow(0)]);
  /** The rows as last set, for async work to read and change without stale closures. */
  const current = useRef(rows);
  const [checkError, setCheckError] = useState('');
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<AddNotice | null>(null);
  const flights = useRef(new Set<Promise<void>>());

  const update = useCallback(
    (change: (rows: Row[]) => Row[]) => {
      const next = withEmptyLast(change(current.current), nextKey);
      current.current = next;
      setRows(next);
    },
    [nextKey],
  );
  const updateRow = useCallback((key: number, change: (r: Row) => Row) => update((rs) => rs.map((r) => (r.key === key ? change(r) : r))), [update]);

  /** Checks every row that needs it: first the pack size of rows with packs typed and no
   * product yet (quantity 0), then the units of each, in one call each. */
  const runCheck = useCallback(async () => {
    const rs = current.current;
    const statuses = rowStatuses(rs);
    const todo = rs.filter((_, i) => statuses[i]!.kind === 'pending').map((r) => ({ key: r.key, rev: r.rev }));
    if (todo.length === 0) return;
    const sent = new Map(todo.map((t) => [t.key, t.rev]));
    update((all) => all.map((r) => (sent.get(r.key) === r.rev ? { ...r, checkingRev: r.rev } : r)));
    const rowOf = (key: number) => current.current.find((r) => r.key === key);
    const apply = (answers: Map<number, { product: SkuProduct | null; problem: Row['problem'] }>) =>
      update((all) => all.map((r) => (answers.has(r.key) ? withChecked(r, sent.get(r.key)!, answers.get(r.key)!) : r)));
    try {
      setCheckError('');
      const asked = todo.map((t) => rowOf(t.key)).filter((r): r is Row => !!r && r.rev === sent.get(r.key));
      // The pack size first, where the packs typed need it.
      const sizeless = asked.filter((r) => unitsOf(r) === null);
      const looked = new Map<number, { product: SkuProduct | null; problem: Row['problem'] }>();
      if (sizeless.length > 0) {
        const answers = await checkLines(sizeless.map((r) => ({ sku: normalSku(r.sku), quantity: 0 })));
        sizeless.forEach((r, i) => looked.set(r.key, answers[i] ?? { product: null, problem: null }));
        // An unknown or unbuyable product is answered now; the others are checked with their units.
        apply(new Map([...looked].filter(([, a]) => !a.product || a.problem)));
      }
      const lines = asked.flatMap((r) => {
        const seen = looked.get(r.key);
        if (seen && (!seen.product || seen.problem)) return [];
        const product = seen?.product ?? rowProduct(r);
        const quantity = unitsOf({ ...r, product });
        return quantity === null ? [] : [{ key: r.key, sku: normalSku(r.sku), quantity }];
      });
      if (lines.length === 0) return;
      const answers = await checkLines(lines.map(({ sku, quantity }) => ({ sku, quantity })));
      apply(new Map(lines.map((l, i) => [l.key, answers[i] ?? { product: null, problem: null }])));
    } catch (err) {
      setCheckError(apiErrorText(err, 'The lines could not be checked. Please try again.'));
    } finally {
      // Rows still marked as in flight (an error, or no answer) are checked next time.
      update((all) => all.map((r) => (sent.get(r.key) === r.checkingRev ? { ...r, checkingRev: -1 } : r)));
    }
  }, [update]);

  /** Starts a check of the rows that need one; answers when it is done. */
  const check = useCallback(() => {
    const p: Promise<void> = runCheck().finally(() => flights.current.delete(p));
    flights.current.add(p);
    return p;
  }, [runCheck]);

  /** Waits for the checks in flight, then checks what is left. */
  const settle = useCallback(async () => {
    while (flights.current.size > 0) await Promise.all([...flights.current]);
    await check();
  }, [check]);

  const statuses = useMemo(() => rowStatuses(rows), [rows]);
  const good = statuses.filter((s) => s.kind === 'good').length;

  /** Adds every good line in one request; the lines added leave the page, the others stay. */
  const addGood = useCallback(async () => {
    setAdding(true);
    setNotice(null);
    try {
      await settle();
      const rs = current.current;
      const st = rowStatuses(rs);
      const sent = rs.flatMap((r, i) => {
        const s = st[i]!;
        return s.kind === 'good' ? [{ key: r.key, rev: r.rev, sku: normalSku(r.sku), quantity: s.units }] : [];
      });
      if (sent.length === 0) {
        setNotice({ ok: false, text: 'No line is ready to add: enter a SKU and packs, or fix the lines marked below.' });
        return;
      }
      const out = await addLines(sent.map(({ sku, quantity }) => ({ sku, quantity })));
      if (out.added) {
        const gone = new Map(sent.map((s) => [s.key, s.rev]));
        update((all) => all.filter((r) => gone.get(r.key) !== r.rev));
        setNotice({ ok: true, added: sent.length });
        return;
      }
      const refused = new Map(out.refused.flatMap((l) => (sent[l.index] ? [[sent[l.index]!.key, l] as const] : [])));
      update((all) =>
        all.map((r) => {
          const l = refused.get(r.key);
          if (!l || sent.find((s) => s.key === r.key)!.rev !== r.rev) return r;
          const { code, message, nearest, available } = l;
          return { ...r, problem: { code, message, ...(nearest && { nearest }), ...(available !== undefined && { available }) }, checkedRev: r.rev };
        }),
      );
      const n = out.refused.length;
      setNotice({
        ok: false,
        text: `Nothing was added: ${n === 1 ? 'one line cannot' : `${n} lines cannot`} be added as ${n === 1 ? 'it stands' : 'they stand'}. Fix or remove the ${n === 1 ? 'line' : 'lines'} marked below and add again.`,
      });
    } catch (err) {
      setNotice({ ok: false, text: apiErrorText(err, 'The lines could not be added. Please try again.') });
    } finally {
      setAdding(false);
    }
  }, [settle, update]);

  return {
    rows,
    statuses,
    good,
    adding,
    notice,
    checkError,
    check,
    addGood,
    setSku: (key: number, sku: string) => updateRow(key, (r) => edited(r, { sku })),
    setPacks: (key: number, packs: string) => updateRow(key, (r) => edited(r, { packs, units: 0 })),
    /** A suggestion picked: the SKU and its product (its pack size and prices). */
    pick: (key: number, product: SkuProduct) => updateRow(key, (r) => edited(r, { sku: product.sku, product })),
    /** A quantity picked from the choices a problem offers (nearest whole packs, what is available). */
    setUnits: (key: number, units: number) => {
      updateRow(key, (r) => {
        const size = rowProduct(r)?.pack_size;
        return size ? edited(r, { packs: String(units / size), units: 0 }) : r;
      });
      void check();
    },
    remove: (key: number) => update((all) => all.filter((r) => r.key !== key)),
    /** The key of the row after this one to type in: the next row when it is empty, else a new row put there. */
    rowAfter: (key: number): number => {
      const rs = current.current;
      const i = rs.findIndex((r) => r.key === key);
      const next = rs[i + 1];
      if (next && next.sku.trim() === '') return next.key;
      const fresh = emptyRow(nextKey());
      update((all) => [...all.slice(0, i + 1), fresh, ...all.slice(i + 1)]);
      return fresh.key;
    },
    /** Puts lines read from a paste or a file on rows and checks them; false when the
     * quick order would then hold more lines than it can (nothing is put). */
    addRead: (lines: ReadLine[]): { added: number; merged: number } | null => {
      const merged = mergeRead(current.current, lines, nextKey);
      if (!merged) return null;
      update(() => merged.rows);
      void check();
      return { added: merged.added, merged: merged.merged };
    },
  };
}
