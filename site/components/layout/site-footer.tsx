import { HelpLinkItems } from './menu-links';

/** Where the feedback link goes: an external survey, set at build time. */
const FEEDBACK_URL = process.env.NEXT_PUBLIC_FEEDBACK_URL || 'https://survey.tradeshop.example/feedback';

/** The footer every page shares. It is rendered when the site is built, so its
 * copyright year is the build's year (every release renders it again). */
export function SiteFooter({ year = new Date().getFullYear() }: { year?: number }) {
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
      <p>© {year} TradeShop Wholesale. Trade prices shown ex VAT.</p>
    </footer>
  );
}
