'use client';
import { keepServerHTML, useKeepServerHTML } from '@/components/app/first-hydration';
import helpLinks from '@/lib/help-links.json';
import type { MenuData } from '@/lib/menu-links';

/** Help pages and the other fixed links of the header menu (SPEC.md section 2); the
 * bench's Hugo site reads the same file. */
export const HELP_LINKS: { href: string; label: string }[] = helpLinks;

/** The help pages as list items, for the header menu and the footer. */
export function HelpLinkItems() {
  return HELP_LINKS.map((l) => (
    <li key={l.href}>
      <a href={l.href}>{l.label}</a>
    </li>
  ));
}

/** The header menu's links: outlet ranges, every category group, help, blog, search.
 * Plain links, which work before any script runs and hydrate nothing; once the app has
 * loaded, a click on one navigates in the app (AppBehaviours' plain-link handler). */
export function MenuLinks({ menu }: { menu: MenuData }) {
  // In the page's first hydration the links stay the server's HTML, unhydrated: nothing in
  // them needs React (the <details> panels are native, the header's handlers are on the DOM).
  const keep = useKeepServerHTML(true);
  if (keep) return <div className="menu-links" {...keepServerHTML} />;
  return (
    <div className="menu-links">
      <ul className="menu-ranges">
        {menu.ranges.map((r) => (
          <li key={r.path}>
            <a href={r.path}>{r.name}</a>
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
                    <a href={c.path}>{c.name}</a>
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
          <a href="/blog/">Blog</a>
        </li>
        <li>
          <a href="/search/">Search</a>
        </li>
      </ul>
    </div>
  );
}
