'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useDeviceFlags } from '@/components/app/use-device-flags';

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

  useEffect(() => {
    setOpen(false);
    nav.current?.querySelectorAll('details[open]').forEach((d) => d.removeAttribute('open'));
  }, [pathname]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const panel = nav.current?.querySelector<HTMLDetailsElement>('details[open]');
      if (panel) {
        panel.removeAttribute('open');
        panel.querySelector('summary')?.focus();
      } else if (open) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const layout = compact === null ? undefined : compact ? 'compact' : 'desktop';
  return (
    <header className="site-header" data-layout={layout}>
      <div className="header-bar">
        {logo}
        {!compact && <div className="header-search">{search}</div>}
        <div className="header-tools">{tools}</div>
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
