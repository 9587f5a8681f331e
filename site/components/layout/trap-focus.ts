import type { KeyboardEvent } from 'react';

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';

/** A modal dialog's keydown handler that keeps Tab and Shift+Tab inside it: from the last
 * control Tab goes to the first, and from the first Shift+Tab to the last. */
export function trapFocus(dialog: HTMLElement | null, e: KeyboardEvent): void {
  if (e.key !== 'Tab' || !dialog) return;
  const items = [...dialog.querySelectorAll<HTMLElement>(focusable)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
