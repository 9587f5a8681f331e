import { describe, expect, it } from 'vitest';
import { pageFromSearch, pagerItems } from './paging';

describe('paging', () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [1, 10, [1, 2, 3, null, 10]],
    [5, 10, [1, null, 3, 4, 5, 6, 7, null, 10]],
    [10, 10, [1, null, 8, 9, 10]],
  ])('page %i of %i', (current, pages, want) => {
    expect(pagerItems(current, pages)).toEqual(want);
  });

  it.each([
    ['', 5, 1],
    ['?page=3', 5, 3],
    ['?page=99', 5, 5],
    ['?page=0', 5, 1],
    ['?page=abc', 5, 1],
    ['?page=2.5', 5, 1],
  ])('%s of %i pages is page %i', (search, pages, want) => {
    expect(pageFromSearch(search, pages)).toBe(want);
  });
});
