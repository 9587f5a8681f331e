import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { initialAccountState, type AccountState, type Profile } from '@/lib/account-store';
import { UpdateDetailsView } from './update-details';

const user = { uid: 'u1', email: 'buyer@meadow.test', displayName: 'Meadow Cards' };
const profile: Profile = { business: 'Meadow Cards', email: user.email, telephone: '01632 960 123', optInMarketing: 1, active_coupon_id: '', dsc: '' };
const signedIn: AccountState = { ...initialAccountState, status: 'ready', user };
const render = (account: AccountState) => renderToStaticMarkup(<UpdateDetailsView account={account} />);

describe('Update Your Details', () => {
  it('shows no business field until the profile has arrived, so nothing typed is overwritten by it', () => {
    for (const profileStatus of ['idle', 'loading'] as const) {
      const html = render({ ...signedIn, profileStatus });
      expect(html).not.toContain('id="business"');
      expect(html).toContain('Loading your details…');
      expect(html).toContain('id="newEmail"'); // the email form needs no profile to be shown
    }
  });

  it('fills the form from the profile once it is here', () => {
    const html = render({ ...signedIn, profile, profileStatus: 'ready' });
    expect(html).toMatch(/id="business"[^>]*value="Meadow Cards"/);
    expect(html).toMatch(/id="telephone"[^>]*value="01632 960 123"/);
    expect(html).toMatch(/id="optin"[^>]*checked/);
  });

  it('says when the profile could not be loaded and offers to try again', () => {
    const html = render({ ...signedIn, profileStatus: 'error' });
    expect(html).toContain('role="alert"');
    expect(html).toContain('Your details could not be loaded.');
    expect(html).toContain('Try again</button>');
    expect(html).not.toContain('id="business"');
  });

  it('signed out, it says so', () => {
    expect(render({ ...initialAccountState, status: 'ready' })).toContain('No user is currently signed in');
    expect(render(initialAccountState)).toContain('Loading your details…');
  });
});
