import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

// A snapshot of one range, two categories and two products, and a partial build's list of
// the pages to render (scripts/build.mjs writes it; docs/build-and-release.md "Partial builds").
const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-test-'));
const category = (id: number, slug: string) => ({ id, slug, name: slug, path: `/outlet/section/${slug}/${id}/` });
writeFileSync(
  path.join(dir, 'catalogue.json'),
  JSON.stringify({
    menu: {
      ranges: [
        { url_text: 'balloons', name: 'Balloons', path: '/outlet/r/balloons/' },
        { url_text: 'cards', name: 'Cards', path: '/outlet/r/cards/' },
      ],
      groups: [{ name: 'Party', categories: [category(601, 'foil'), category(602, 'latex')] }],
    },
    product_paths: ['/red-balloon-bl1/', '/blue-balloon-bl2/'],
  }),
);
writeFileSync(path.join(dir, 'render.json'), JSON.stringify(['/', '/outlet/r/cards/', '/outlet/section/latex/602/', '/blue-balloon-bl2/']));
vi.stubEnv('CATALOGUE_SNAPSHOT_DIR', dir);
vi.stubEnv('CATALOGUE_PAGES_FILE', path.join(dir, 'render.json'));

const { categoryParams, rangeParams, renders } = await import('./catalogue');
const { catchAllParams } = await import('./catch-all');

describe("a partial build's pages", () => {
  it('limits the catalogue routes to the pages named, and keeps every content page', () => {
    expect(rangeParams()).toEqual([{ urlText: 'cards' }]);
    expect(categoryParams()).toEqual([{ urltext: 'latex', pageID: '602' }]);
    const slugs = catchAllParams().map((p) => p.slug.join('/'));
    expect(slugs).toContain('blue-balloon-bl2');
    expect(slugs).not.toContain('red-balloon-bl1');
    expect(slugs).toContain('help/faq');
    expect(renders('/red-balloon-bl1/')).toBe(false);
  });
});
