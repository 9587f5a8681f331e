import { describe, expect, it } from 'vitest';
import { authErrorMessage } from './auth-errors';
import { businessProblem, passwordProblem, telephoneProblem, validEmail } from './validation';

describe('authErrorMessage', () => {
  it.each([
    'auth/wrong-password',
    'auth/user-not-found',
    'auth/email-already-in-use',
    'auth/too-many-requests',
    'auth/invalid-credential',
    'auth/network-request-failed',
    'auth/popup-blocked',
    'auth/invalid-api-key',
  ])('%s reads as plain English, never the code', (code) => {
    const m = authErrorMessage({ code });
    expect(m).not.toContain('auth/');
    expect(m).not.toBe(authErrorMessage({ code: 'auth/something-new' }));
  });
  it('falls back for anything else', () => {
    expect(authErrorMessage(new Error('x'))).toBe('Something went wrong. Please try again.');
  });
});

describe('validation', () => {
  it.each([
    ['buyer@shop.co.uk', true],
    ['Buyer@Shop.CO.UK', true],
    ['a.b-c@sub.example.org', true],
    ['x@[192.168.0.1]', true],
    ['no-at-sign', false],
    ['a@b', false],
    ['a@b.c', false],
    ['a b@shop.com', false],
  ])('email %s valid: %s', (e, want) => expect(validEmail(e)).toBe(want));

  it('uses the provider minimum, or 6 when it gives none', () => {
    expect(passwordProblem('12345', null)).toMatch(/6 characters/);
    expect(passwordProblem('123456', null)).toBeNull();
    expect(passwordProblem('1234567', { minLength: 8 })).toMatch(/8 characters/);
  });

  it('checks telephone and business', () => {
    expect(telephoneProblem('')).toBeNull();
    expect(telephoneProblem('01632 960 123')).toBeNull();
    expect(telephoneProblem('+44 (0)1632 960123')).toBeNull();
    expect(telephoneProblem('call me')).not.toBeNull();
    expect(businessProblem(' A ')).not.toBeNull();
    expect(businessProblem("Alice's Cards")).toBeNull();
  });
});
