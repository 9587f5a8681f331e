import { describe, expect, it } from 'vitest';
import { readSearchParams, searchHref } from './search';

describe('search params', () => {
  it('reads and writes a search', () => {
    const s = readSearchParams(new URLSearchParams('q= birthday cards &page=3&range=wholesale_greeting_cards'));
    expect(s).toEqual({ q: 'birthday cards', page: 3, range: 'wholesale_greeting_cards', category: '' });
    expect(searchHref(s)).toBe('/search/?q=birthday+cards&range=wholesale_greeting_cards&page=3');
    expect(searchHref({ ...s, page: 1, range: '' })).toBe('/search/?q=birthday+cards');
  });

  it('falls back to page 1 for a bad page', () => {
    expect(readSearchParams(new URLSearchParams('q=a&page=-2')).page).toBe(1);
    expect(readSearchParams(new URLSearchParams('q=a&page=x')).page).toBe(1);
  });
});
