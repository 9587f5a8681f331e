import { describe, expect, it } from 'vitest';
import { needsAccount } from './account-provider';

describe('needsAccount', () => {
  it('names the pages that load the sign-in SDK for every visitor, and no catalogue page', () => {
    for (const p of [
      '/account/login/',
      '/account/register/',
      '/account/password_reset/',
      '/account/',
      '/account',
      '/checkout/basket/',
      '/checkout/complete/A1/',
      '/admin/',
      '/admin/orders/',
    ])
      expect(needsAccount(p), p).toBe(true);
    for (const p of [
      '/',
      '/outlet/r/wholesale_balloons/',
      '/outlet/section/female-birthday-cards/101/',
      '/birthday-card-female-1/',
      '/help/faq/',
      '/search/',
      '/accounts-help/',
      '/administration/',
    ])
      expect(needsAccount(p), p).toBe(false);
  });
});
