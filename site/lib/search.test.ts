import { describe, expect, it } from 'vitest';
import { readSearchParams, searchHref } from './search';
import { UNFILTERED } from './listing';

describe('search params', () => {
  it('reads and writes a search', () => {
    const s = readSearchParams(new URLSearchParams('q= birthday cards &page=3&range=wholesale_greeting_cards'));
    expect(s).toEqual({ ...UNFILTERED, q: 'birthday cards', page: 3, range: 'wholesale_greeting_cards', category: '' });
    expect(searchHref(s)).toBe('/search/?q=birthday+cards&range=wholesale_greeting_cards&page=3');
    expect(searchHref({ ...s, page: 1, range: '' })).toBe('/search/?q=birthday+cards');
  });

  it('reads and writes the sort and filters after the words, range and category', () => {
    const s = readSearchParams(new URLSearchParams('page=2&stock=in&occasion=birthday,wedding&sort=price&q=cards&category=12&min=45'));
    expect(s).toMatchObject({ sort: 'price', selected: { occasion: ['birthday', 'wedding'] }, min: '45', inStock: true, page: 2 });
    expect(searchHref(s)).toBe('/search/?q=cards&category=12&sort=price&occasion=birthday,wedding&min=45&stock=in&page=2');
    expect(readSearchParams(new URLSearchParams('q=a&sort=relevance')).sort).toBe('');
    expect(readSearchParams(new URLSearchParams('q=a&sort=featured')).sort).toBe('');
  });

  it('falls back to page 1 for a bad page', () => {
    expect(readSearchParams(new URLSearchParams('q=a&page=-2')).page).toBe(1);
    expect(readSearchParams(new URLSearchParams('q=a&page=x')).page).toBe(1);
  });
});
