import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isDay, londonDay, londonMidnight } from './london-dates';

describe('londonMidnight', () => {
  it.each([
    ['2026-01-15', Date.UTC(2026, 0, 15)], // GMT
    ['2026-07-01', Date.UTC(2026, 5, 30, 23)], // BST: an hour before UTC midnight
    ['2026-03-29', Date.UTC(2026, 2, 29)], // clocks go forward at 01:00 UTC that day
    ['2026-03-30', Date.UTC(2026, 2, 29, 23)],
    ['2026-10-25', Date.UTC(2026, 9, 24, 23)], // clocks go back at 01:00 UTC that day
    ['2026-10-26', Date.UTC(2026, 9, 26)],
  ])('%s starts at %i', (day, ms) => {
    expect(londonMidnight(day)).toBe(ms);
    expect(londonDay(ms)).toBe(day);
    expect(londonDay(ms - 1)).toBe(addDays(day, -1));
  });

  it('refuses what is not a day', () => {
    expect(() => londonMidnight('2026-02-30')).toThrow(RangeError);
  });
});

describe('days', () => {
  it('knows real days', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-1-05')).toBe(false);
    expect(isDay('')).toBe(false);
  });

  it('counts and adds days across the clock changes and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(daysBetween('2026-11-30', '2026-11-01')).toBe(-29);
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
  });
});
