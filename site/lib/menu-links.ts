import type { Menu } from './types';

/** What the header menu shows of the catalogue: names and paths only (menuLinks), so
 * every page's RSC data carries the 62 categories as a short list, not as the tree of
 * their markup, and not the ranges' descriptions. */
export interface MenuData {
  ranges: { name: string; path: string }[];
  groups: { name: string; categories: { id: number; name: string; path: string }[] }[];
}

/** The menu's fields of the catalogue's menu, and nothing else. */
export function menuLinks(menu: Menu): MenuData {
  return {
    ranges: menu.ranges.map(({ name, path }) => ({ name, path })),
    groups: menu.groups.map((g) => ({ name: g.name, categories: g.categories.map(({ id, name, path }) => ({ id, name, path })) })),
  };
}
