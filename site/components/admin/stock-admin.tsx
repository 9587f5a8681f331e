'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Field } from '@/components/account/field';
import { LoadFailed } from '@/components/errors/load-failed';
import { apiErrorText } from '@/lib/api';
import { adminProduct, adminStock, type ProductWithAudit, type StockProduct } from '@/lib/admin';
import { checkStockForm, type StockForm } from '@/lib/admin-forms';
import { searchCatalogue, type SearchHit } from '@/lib/search';
import { AuditTrail } from './audit-trail';
import { ForwardForm } from './forward-form';
import { FormOutcome } from './form-outcome';
import { useAdminRecord } from './use-admin-record';
import { useAdminSubmit } from './use-admin-submit';

/** A product SKU's shape (catalogue.ValidSKU): GC101-00001. */
const SKU = /^[A-Z0-9][A-Z0-9-]{0,31}$/;

/** /admin/stock/: find a product by SKU (or by name, through the shop's search), see its
 * stock, set it or move it with a reason, mark it forward (pre-order), and see its changes. The SKU shown is in the
 * address (?sku=). */
export function StockAdmin() {
  const sku = (useSearchParams().get('sku') ?? '').trim().toUpperCase();
  const router = useRouter();
  const show = (s: string) => router.replace(`/admin/stock/?sku=${encodeURIComponent(s)}`);
  return (
    <>
      <h1>Stock</h1>
      <div className="admin-finders">
        <SkuFinder key={sku} sku={sku} show={show} />
        <NameFinder show={show} />
      </div>
      {sku && <ProductStock key={sku} sku={sku} />}
    </>
  );
}

function SkuFinder({ sku, show }: { sku: string; show: (sku: string) => void }) {
  const [text, setText] = useState(sku);
  const [problem, setProblem] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    const s = text.trim().toUpperCase();
    if (!SKU.test(s)) {
      setProblem('Enter a SKU such as GC101-00001.');
      return;
    }
    setProblem('');
    show(s);
  }
  return (
    <form className="admin-filters" onSubmit={submit} noValidate aria-label="Find by SKU">
      <Field id="stock-sku" label="SKU" value={text} onChange={(e) => setText(e.target.value)} autoCapitalize="characters" maxLength={11} error={problem} />
      <button type="submit" className="button">
        Show stock
      </button>
    </form>
  );
}

/** Finds products by name with GET /api/search (the shop's own search), to choose one. */
function NameFinder({ show }: { show: (sku: string) => void }) {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string }>({ busy: false, error: '' });
  async function search(e?: FormEvent) {
    e?.preventDefault();
    const q = text.trim();
    if (!q || state.busy) return;
    setState({ busy: true, error: '' });
    try {
      setHits((await searchCatalogue({ q, page: 1, range: '', category: '' })).hits);
      setState({ busy: false, error: '' });
    } catch (err) {
      setState({ busy: false, error: apiErrorText(err, 'The search did not work.') });
    }
  }
  return (
    <div>
      <form className="admin-filters" role="search" onSubmit={search} aria-label="Find by name">
        <div className="field">
          <label htmlFor="stock-name">Or a product name</label>
          <input id="stock-name" type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit" className="button" aria-disabled={state.busy}>
          {state.busy ? 'Finding…' : 'Find products'}
        </button>
      </form>
      {state.error && <LoadFailed what={state.error} retry={() => void search()} />}
      {hits && hits.length === 0 && <p role="status">No products match.</p>}
      {hits && hits.length > 0 && (
        <ul className="admin-hits" aria-label="Products found">
          {hits.map((h) => (
            <li key={h.sku}>
              <button type="button" className="link-button" onClick={() => show(h.sku)}>
                {h.name} <span className="muted">({h.sku})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ProductStock({ sku }: { sku: string }) {
  const { state, reload, replace } = useAdminRecord(() => adminProduct(sku), `Product ${sku} could not be loaded.`);
  if (state.status === 'loading') return <p role="status">Loading {sku}…</p>;
  if (state.status === 'failed') {
    return state.notFound ? (
      <p className="form-error" role="alert">
        There is no product {sku}.
      </p>
    ) : (
      <LoadFailed what={state.text} retry={reload} />
    );
  }
  const { product, audit } = state.data;
  return (
    <>
      <section className="admin-product" aria-labelledby="product-name">
        <h2 id="product-name">{product.name}</h2>
        <dl className="summary-list admin-facts">
          <dt>SKU</dt>
          <dd>{product.sku}</dd>
          <dt>Pack size</dt>
          <dd>{product.pack_size} units</dd>
          <dt>In stock</dt>
          <dd className="stock-units">{product.stock} units</dd>
          <dt>Status</dt>
          <dd className="product-status" data-status={product.status}>
            {product.status === 'discontinued' ? 'Discontinued: no longer shown or sold in the shop' : 'Active'}
          </dd>
        </dl>
        <StockChange product={product} saved={replace} reload={reload} />
        <ForwardForm product={product} saved={replace} />
      </section>
      <AuditTrail entries={audit} />
    </>
  );
}

/** Set the stock to a count, or add or take away units, with the reason: a set sends the
 * stock shown as expected, so a sale meanwhile is a 409, not lost. */
function StockChange({ product, saved, reload }: { product: StockProduct; saved: (p: ProductWithAudit) => void; reload: () => void }) {
  const [form, setForm] = useState<StockForm>({ mode: 'set', quantity: '', reason: '' });
  const { busy, problems, setProblems, outcome, submit, reset } = useAdminSubmit();
  const set = (patch: Partial<StockForm>) => setForm((f) => ({ ...f, ...patch }));
  function save(e: FormEvent) {
    e.preventDefault();
    const r = checkStockForm(form, product.stock);
    if (!r.ok) {
      setProblems(r.problems);
      return;
    }
    void submit(async () => {
      const answer = await adminStock(product.sku, r.value);
      saved(answer);
      setForm((f) => ({ ...f, quantity: '', reason: '' }));
      return `${product.sku} now has ${answer.product.stock} units in stock.`;
    }, 'The stock could not be changed.');
  }
  const modes: [StockForm['mode'], string][] = [
    ['set', 'Set the stock to'],
    ['add', 'Add units'],
    ['remove', 'Take units away'],
  ];
  return (
    <form className="form admin-form" onSubmit={save} noValidate aria-labelledby="stock-change">
      <h3 id="stock-change">Change the stock</h3>
      <FormOutcome
        outcome={outcome}
        reload={() => {
          reset();
          reload();
        }}
      />
      <fieldset className="field">
        <legend>Change</legend>
        {modes.map(([mode, label]) => (
          <div className="check" key={mode}>
            <input id={`stock-mode-${mode}`} type="radio" name="stock-mode" checked={form.mode === mode} onChange={() => set({ mode })} />
            <label htmlFor={`stock-mode-${mode}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <Field
        id="stock-quantity"
        label={form.mode === 'set' ? 'Units in stock' : 'Units'}
        inputMode="numeric"
        value={form.quantity}
        onChange={(e) => set({ quantity: e.target.value })}
        required
        error={problems.quantity ?? problems.expected}
      />
      <Field
        id="stock-reason"
        label="Reason"
        hint="3 to 200 characters: a delivery, a stock take, damaged goods."
        value={form.reason}
        onChange={(e) => set({ reason: e.target.value })}
        maxLength={200}
        required
        error={problems.reason}
      />
      <button type="submit" className="button" aria-disabled={busy}>
        {busy ? 'Saving…' : 'Save stock'}
      </button>
    </form>
  );
}
