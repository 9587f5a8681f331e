'use client';
import Link from '@/components/app/link';
import helpLinks from '@/lib/help-links.json';
import type { MenuData } from '@/lib/menu-links';

/** Help pages and the other fixed links of the header menu (SPEC.md section 2); the
 * bench's Hugo site reads the same file. */
export const HELP_LINKS: { href: string; label: string }[] = helpLinks;

/** The help pages as list items, for the header menu and the footer. */
export function HelpLinkItems() {
  return HELP_LINKS.map((l) => (
    <li key={l.href}>
      <Link href={l.href}>{l.label}</Link>
    </li>
  ));
}

/** The header menu's links: outlet ranges, every category group, help, blog, search. */
export function MenuLinks({ menu }: { menu: MenuData }) {
  return (
    <>
      <ul className="menu-ranges">
        {menu.ranges.map((r) => (
          <li key={r.path}>
            <Link href={r.path}>{r.name}</Link>
          </li>
        ))}
      </ul>
      <details className="menu-panel menu-categories">
        <summary>Shop by category</summary>
        <div className="menu-groups">
          {menu.groups.map((g) => (
            <div key={g.name} className="menu-group">
              <p className="menu-group-title" id={`menu-${g.categories[0]?.id ?? g.name}`}>
                {g.name}
              </p>
              <ul aria-labelledby={`menu-${g.categories[0]?.id ?? g.name}`}>
                {g.categories.map((c) => (
                  <li key={c.id}>
                    <Link href={c.path}>{c.name}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </details>
      <details className="menu-panel">
        <summary>Help</summary>
        <ul className="menu-help">
          <HelpLinkItems />
        </ul>
      </details>
      <ul className="menu-other">
        <li>
          <Link href="/blog/">Blog</Link>
        </li>
        <li>
          <Link href="/search/">Search</Link>
        </li>
      </ul>
    </>
  );
}
