/** Calendar days as the shop keeps them: in the UK (Europe/London), as YYYY-MM-DD, the value
 * of an <input type="date">. The export's range and a coupon's validity are London days
 * wherever the browser is. */

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** London's wall clock at a moment (Unix ms), read as if it were UTC. */
function londonWallClock(ms: number): number {
  const p = Object.fromEntries(londonParts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** How far London's clocks are ahead of UTC at a moment: 0 in winter, an hour in summer. */
const londonOffset = (ms: number) => londonWallClock(Math.floor(ms / 1000) * 1000) - Math.floor(ms / 1000) * 1000;

/** The London day (YYYY-MM-DD) a moment (Unix ms) falls on. */
export function londonDay(ms: number): string {
  return new Date(londonWallClock(ms)).toISOString().slice(0, 10);
}

/** Whether text is a real day written YYYY-MM-DD (2026-02-30 is not). */
export function isDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** The moment (Unix ms) a London day starts. The clocks change at 01:00 UTC, never at
 * midnight, so every London day has exactly one midnight. */
export function londonMidnight(day: string): number {
  if (!isDay(day)) throw new RangeError(`not a day: ${day}`);
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  return utcMidnight - londonOffset(utcMidnight - londonOffset(utcMidnight));
}

/** The day n days after day (before, for a negative n). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** How many days from one day to another: 0 for the same day, negative when to is before. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A London day (YYYY-MM-DD) in words, "24 November 2025", as the shop writes dates. */
export function formatLondonDay(day: string): string {
  return new Date(londonMidnight(day)).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' });
}
