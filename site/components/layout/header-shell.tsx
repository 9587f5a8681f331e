'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useDeviceFlags } from '@/components/app/use-device-flags';
import { nudgeIntoView } from '@/lib/dropdown';

/** Lays the header out by the device flags: on mobile and tablet the menu folds
 * behind a Menu button and holds the search form; on desktop the search form sits
 * beside the menu. Before the flags are known it renders the desktop layout, which
 * CSS folds away on narrow screens. */
export function HeaderShell({ logo, search, menu, tools }: { logo: ReactNode; search: ReactNode; menu: ReactNode; tools: ReactNode }) {
  const flags = useDeviceFlags();
  const compact = flags ? flags.mobile || flags.tablet : null;
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  const root = useRef<HTMLElement>(null);

  useEffect(() => {
    setOpen(false);
    nav.current?.querySelectorAll('details[open]').forEach((d) => d.removeAttribute('open'));
  }, [pathname]);

  // The header's <details> dropdowns (category and help panels, basket, account menu)
  // behave as menus: Escape closes the open one and gives its toggle the focus; a click or
  // tap outside an open dropdown closes it. In the folded (compact) menu the panels are
  // inline sections, not dropdowns, so only the tools' dropdowns close on an outside click.
  useEffect(() => {
    const header = root.current;
    if (!header) return;
    const openDetails = (selector = 'details[open]') => [...header.querySelectorAll<HTMLDetailsElement>(selector)];
    const onKey = (e: KeyboardEvent) => {
      // A modal dialog (Trade info) closes itself on Escape.
      if (e.key !== 'Escape' || e.defaultPrevented || document.activeElement?.closest('dialog[open]')) return;
      const all = openDetails();
      // The innermost open dropdown holding the focus, else every open one.
      const focused = all.filter((d) => d.contains(document.activeElement)).pop();
      const closing = focused ? [focused] : all;
      const last = closing.at(-1);
      if (last) {
        for (const d of closing) d.open = false;
        last.querySelector('summary')?.focus();
      } else if (open) setOpen(false);
    };
    const onClick = (e: MouseEvent) => {
      // The event's path, not contains(): a click may re-render (and remove) its target.
      const path = e.composedPath();
      for (const d of openDetails(compact ? '.header-tools details[open]' : 'details[open]')) {
        if (!path.includes(d)) d.open = false;
      }
    };
    // An open dropdown is moved sideways, if need be, to lie inside the screen (the Help
    // panel opens under its summary, which can sit near either edge of the menu's row).
    const place = (d: HTMLDetailsElement) => {
      const panel = d.querySelector<HTMLElement>(':scope > summary + *');
      if (!panel) return;
      panel.style.translate = '';
      if (!d.open || getComputedStyle(panel).position !== 'absolute') return;
      const r = panel.getBoundingClientRect();
      const dx = nudgeIntoView(r.left, r.right, document.documentElement.clientWidth);
      if (dx) panel.style.translate = `${Math.round(dx)}px 0`;
    };
    const onToggle = (e: Event) => {
      if (e.target instanceof HTMLDetailsElement) place(e.target);
    };
    const onResize = () => openDetails().forEach(place);
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick, true);
    header.addEventListener('toggle', onToggle, true); // toggle does not bubble
    window.addEventListener('resize', onResize);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick, true);
      header.removeEventListener('toggle', onToggle, true);
      window.removeEventListener('resize', onResize);
    };
  }, [open, compact]);

  const layout = compact === null ? undefined : compact ? 'compact' : 'desktop';
  return (
    <header ref={root} className="site-header" data-layout={layout}>
      <div className="header-bar">
        {logo}
        {!compact && <div className="header-search">{search}</div>}
        <div className="header-tools">{tools}</div>
        {/* Before the flags (and without script), a narrow screen opens the menu through a plain link to it. */}
        {compact === null && (
          <a className="menu-nojs" href="#site-menu">
            Menu
          </a>
        )}
        {compact && (
          <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="site-menu" onClick={() => setOpen((o) => !o)}>
            {open ? 'Close menu' : 'Menu'}
          </button>
        )}
      </div>
      <nav id="site-menu" ref={nav} aria-label="Main menu" className="site-menu" hidden={compact === true && !open}>
        {compact && <div className="menu-search">{search}</div>}
        {menu}
      </nav>
    </header>
  );
}
