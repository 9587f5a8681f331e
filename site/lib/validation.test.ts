import { describe, expect, it } from 'vitest';
import { businessProblem, characterProblem } from './validation';

describe('the text rule as the forms check it (functions/internal/text)', () => {
  it('accepts a business name trimmed, counting characters after NFC', () => {
    expect(businessProblem('  Acme Cards Ltd \n')).toBeNull();
    expect(businessProblem('e\u0301'.repeat(100))).toBeNull(); // 100 characters once composed
    expect(businessProblem('x'.repeat(101))).toBe('Enter your business name (2 to 100 characters).');
  });

  it.each([
    ['NUL', 'Acme\u0000Cards', 'control'],
    ['CR LF', 'Acme\r\nCards', 'control'],
    ['TAB', 'Acme\tCards', 'control'],
    ['right-to-left override', '\u202Eevil Ltd', 'invisible'],
    ['bidi isolate', 'Acme \u2066x\u2069', 'invisible'],
    ['zero-width space', 'Ac\u200bme', 'invisible'],
    ['byte order mark at the start', '\ufeffAcme', 'invisible'],
  ])("refuses a business name with a %s, in the server's words", (_, name, kind) => {
    expect(businessProblem(name)).toBe(
      kind === 'control'
        ? 'Business name must not contain control characters such as tabs or line breaks.'
        : 'Business name must not contain invisible characters such as zero-width spaces or text-direction controls.',
    );
  });

  it('names the field it is given', () => {
    expect(characterProblem('Company name', 'Shop\u200dLtd')).toMatch(/^Company name must not contain invisible/);
    expect(characterProblem('Company name', 'Shop Ltd')).toBeNull();
  });
});
