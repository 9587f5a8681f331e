'use client';
import { useId, useRef } from 'react';
import { filterChips, withoutFilters, withValue, type FacetCounts, type ListingState, type PriceOption } from '@/lib/listing';

/** What the panel knows of the buyer's "In stock now" filter: whether they are signed in
 * (signed out, it is a note), and whether their stock is being checked or failed. */
export interface StockChoice {
  signedIn: boolean;
  checking?: boolean;
  failed?: boolean;
  retry?: () => void;
}

/** A listing's filters: the chosen ones as chips with Clear all, then each facet as a
 * fieldset of checkboxes "Label (count)" (a value no product would match is disabled, not
 * hidden), the price range, and in stock now. Every change calls onChange with the new
 * state at once; the phone's panel holds it as a draft until Apply. */
export function FilterPanel({
  facets,
  prices,
  state,
  onChange,
  stock,
}: {
  facets: readonly FacetCounts[];
  prices: readonly PriceOption[];
  state: ListingState;
  onChange: (s: ListingState) => void;
  stock: StockChoice;
}) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const chips = filterChips(state, facets, prices);
  // A removed chip (or Clear all) takes its button away: focus moves to the chip now in
  // its place, else to the panel's first control, not back to the top of the page.
  const refocus = (chip: number) =>
    requestAnimationFrame(() => {
      const left = panel.current?.querySelectorAll<HTMLElement>('.filter-chip') ?? [];
      const target = left[Math.min(chip, left.length - 1)] ?? panel.current?.querySelector<HTMLElement>('input:not([disabled]), select');
      target?.focus();
    });
  return (
    <div className="filter-panel" ref={panel}>
      {chips.length > 0 && (
        <div className="filter-chips">
          <ul aria-label="Chosen filters">
            {chips.map((c, i) => (
              <li key={c.label}>
                <button
                  type="button"
                  className="filter-chip"
                  aria-label={`Remove ${c.label}`}
                  onClick={() => {
                    onChange(c.without);
                    refocus(i);
                  }}
                >
                  {c.label} <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              onChange(withoutFilters(state));
              refocus(chips.length);
            }}
          >
            Clear all
          </button>
        </div>
      )}
      {facets.map((f) => (
        <fieldset key={f.key} className="filter-facet">
          <legend>{f.label}</legend>
          {f.values.map((v) => {
            const checked = state.selected[f.key]?.includes(v.id) ?? false;
            return (
              <label key={v.id} className="filter-value">
                <input
                  type="checkbox"
                  name={f.key}
                  value={v.id}
                  checked={checked}
                  disabled={v.count === 0 && !checked}
                  onChange={(e) => onChange(withValue(state, facets, f.key, v.id, e.target.checked))}
                />{' '}
                {v.label} ({v.count})
              </label>
            );
          })}
        </fieldset>
      ))}
      {prices.length > 1 && (
        <fieldset className="filter-facet filter-prices">
          <legend>Price range</legend>
          <PriceSelect id={`${id}-min`} label="Price from" value={state.min} prices={prices} onPick={(min) => onChange({ ...state, min, page: 1 })} />
          <PriceSelect id={`${id}-max`} label="Price to" value={state.max} prices={prices} onPick={(max) => onChange({ ...state, max, page: 1 })} />
        </fieldset>
      )}
      <fieldset className="filter-facet">
        <legend>Availability</legend>
        {stock.signedIn ? (
          <>
            <label className="filter-value">
              <input type="checkbox" name="stock" checked={state.inStock} onChange={(e) => onChange({ ...state, inStock: e.target.checked, page: 1 })} /> In
              stock now
            </label>
            {stock.checking && <p className="muted filter-note">Checking stock…</p>}
            {stock.failed && (
              <p className="form-error filter-note" role="alert">
                Stock could not be checked.{' '}
                <button type="button" className="link-button" onClick={stock.retry}>
                  Try again
                </button>
              </p>
            )}
          </>
        ) : (
          <p className="muted filter-note">Sign in to filter by stock.</p>
        )}
      </fieldset>
    </div>
  );
}

/** One end of the price range: the listing's own prices, or Any. */
function PriceSelect({
  id,
  label,
  value,
  prices,
  onPick,
}: {
  id: string;
  label: string;
  value: string;
  prices: readonly PriceOption[];
  onPick: (id: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onPick(e.target.value)}>
        <option value="">Any</option>
        {prices.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </>
  );
}
