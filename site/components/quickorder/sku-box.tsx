'use client';
import { useState, type KeyboardEvent } from 'react';
import { ProductImage } from '@/components/catalogue/product-image';
import { availabilityText } from '@/lib/availability';
import { preOrderLines } from '@/lib/forward';
import { useLondonToday } from '@/components/catalogue/use-london-today';
import { formatPence } from '@/lib/format';
import type { SkuProduct } from '@/lib/quick-order';
import { useSkuSuggestions } from './use-sku-suggestions';

/** A row's SKU box: a combobox (WAI-ARIA 1.2, list autocomplete) whose suggestions are the
 * products matching what is typed, with picture, pack size, stock and the buyer's pack
 * price. Arrow keys move through them, Enter picks, Escape closes, and Enter with none
 * chosen moves on to the packs box (onEnter). */
export function SkuBox({
  id,
  label,
  value,
  invalid,
  describedBy,
  onChange,
  onPick,
  onEnter,
}: {
  id: string;
  label: string;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (text: string) => void;
  onPick: (p: SkuProduct) => void;
  onEnter: () => void;
}) {
  const [focused, setFocused] = useState(false);
  const today = useLondonToday();
  /** Closed by Escape or a pick until the text changes again. */
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const found = useSkuSuggestions(value, focused && closedFor !== value);
  const options = found.query === value.trim() ? found.products : [];
  const open = options.length > 0;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const current = open && active >= 0 && active < options.length ? active : -1;

  const pick = (p: SkuProduct) => {
    setClosedFor(p.sku);
    setActive(-1);
    onPick(p);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!open) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a < 0 ? (step > 0 ? 0 : options.length - 1) : (a + step + options.length) % options.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (current >= 0) pick(options[current]!);
      else onEnter();
    } else if (e.key === 'Escape' && open) {
      // Handled here: the header's Escape (closing its dropdowns) leaves it alone.
      e.preventDefault();
      setClosedFor(value);
      setActive(-1);
    }
  };

  return (
    <div className="sku-box">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={value}
        onChange={(e) => {
          setActive(-1);
          onChange(e.target.value);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={`Products for ${label}`} className="sku-options" hidden={!open}>
        {options.map((p, i) => (
          <li
            key={p.sku}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className={i === current ? 'sku-option sku-option-active' : 'sku-option'}
            // Keep the focus in the box: the click picks.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(p)}
          >
            <ProductImage src={p.small_img} alt="" width={32} height={32} />
            <span>
              <strong>{p.sku}</strong> {p.name}
              <br />
              <span className="muted">
                Packs of {p.pack_size} · {preOrderLines(p.forward, today, p.availability.status !== 'out')?.[0] ?? availabilityText(p.availability)} ·{' '}
                {formatPence(p.pack_price)} a pack
              </span>
            </span>
          </li>
        ))}
      </ul>
      {focused && found.loading && options.length === 0 && (
        <span className="sr-only" role="status">
          Finding products…
        </span>
      )}
      {focused && open && (
        <span className="sr-only" role="status">
          {options.length === 1 ? '1 product found' : `${options.length} products found`}: use the arrow keys to choose.
        </span>
      )}
    </div>
  );
}
