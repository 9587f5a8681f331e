import { describe, expect, it } from 'vitest';
import {
  appliedText,
  byName,
  changeCounts,
  changesNothing,
  moreProblemsText,
  priceGroupExportName,
  priceGroupFileProblem,
  priceGroupFormProblems,
  problemLine,
  rowsText,
  type PriceGroup,
} from './price-groups';

const group = (id: string, name: string): PriceGroup => ({ id, name, rows: 0, version: 1, updated_at: 0 });

describe('priceGroupFormProblems', () => {
  it('takes a slug id and a one-line name', () => {
    expect(priceGroupFormProblems({ id: 'independents', name: 'Independents' })).toEqual({});
    expect(priceGroupFormProblems({ id: ' garden-centres ', name: 'Garden centres' })).toEqual({});
  });

  it('says what is wrong with each field', () => {
    expect(Object.keys(priceGroupFormProblems({ id: '', name: '' }))).toEqual(['id', 'name']);
    expect(priceGroupFormProblems({ id: 'Garden Centres', name: 'x' }).id).toMatch(/lowercase letters, digits and hyphens/);
    expect(priceGroupFormProblems({ id: 'a'.repeat(41), name: 'x' }).id).toBeDefined();
    expect(priceGroupFormProblems({ id: 'x', name: 'n'.repeat(61) }).name).toMatch(/at most 60/);
    expect(priceGroupFormProblems({ id: 'x', name: 'two\nlines' }).name).toBeDefined();
  });
});

describe('priceGroupFileProblem', () => {
  it('takes a CSV file that is not empty', () => {
    expect(priceGroupFileProblem({ name: 'Independents.CSV', size: 10 })).toBeNull();
    expect(priceGroupFileProblem({ name: 'prices.xlsx', size: 10 })).toBe('prices.xlsx is not a .csv file.');
    expect(priceGroupFileProblem({ name: 'prices.csv', size: 0 })).toBe('prices.csv is empty.');
  });
});

describe('the words of a check', () => {
  const answer = {
    problems: [],
    problem_count: 0,
    rows: 3,
    added: 2,
    changed: 1,
    removed: 0,
    applied: true,
    group: { ...group('independents', 'Independents'), rows: 3 },
  };

  it('count the rows and changes', () => {
    expect(rowsText(0)).toBe('no rows yet');
    expect(rowsText(1)).toBe('1 row');
    expect(rowsText(1200)).toBe('1,200 rows');
    expect(changeCounts(answer)).toBe('2 added, 1 changed, 0 removed');
    expect(changesNothing(answer)).toBe(false);
    expect(changesNothing({ added: 0, changed: 0, removed: 0 })).toBe(true);
    expect(appliedText(answer)).toBe('Independents now holds 3 rows (2 added, 1 changed, 0 removed). Every account in the group is priced by it from now on.');
  });

  it('name the line of a problem, and say when the list is cut', () => {
    expect(problemLine(3)).toBe('3');
    expect(problemLine(0)).toBe('whole file');
    expect(moreProblemsText(12, 12)).toBe('');
    expect(moreProblemsText(200, 250)).toMatch(/first 200 of 250 problems/);
  });
});

it('names the export after the group', () => {
  expect(priceGroupExportName('independents')).toBe('price-group-independents.csv');
});

it('lists groups by name', () => {
  expect(byName([group('b', 'Multiples'), group('a', 'Garden centres'), group('c', 'Independents')]).map((g) => g.id)).toEqual(['a', 'c', 'b']);
});
