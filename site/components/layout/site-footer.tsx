import { getShopConfig } from '@/lib/shop-config';
import { HelpLinkItems } from './menu-links';

/** Where the feedback link goes: an external survey, set at build time. */
const FEEDBACK_URL = process.env.NEXT_PUBLIC_FEEDBACK_URL || 'https://survey.tradeshop.example/feedback';

/** The footer every page shares. It is rendered when the site is built, so its
 * copyright year is the build's year (every release renders it again). It carries the
 * company details a UK business website must show (name, where registered, number,
 * registered office) and the VAT number, all from functions/config/shop.json. */
export function SiteFooter({ year = new Date().getFullYear() }: { year?: number }) {
  const b = getShopConfig().business;
  const company = b.tradingName === b.legalName ? b.legalName : `${b.tradingName} is a trading name of ${b.legalName}`;
  return (
    <footer className="site-footer">
      <nav aria-label="Help">
        <ul>
          <HelpLinkItems />
          <li>
            <a href={FEEDBACK_URL} rel="noopener" target="_blank">
              Tell us what you think (feedback survey, opens in a new tab)
            </a>
          </li>
        </ul>
      </nav>
      <p>
        © {year} {b.tradingName}. Trade prices shown ex VAT.
      </p>
      <p className="company-details">
        {company}, registered in {b.registeredIn}, company number {b.companyNumber}. Registered office: {b.registeredAddress}. VAT registration number{' '}
        {b.vatNumber}.
      </p>
    </footer>
  );
}
