import type { Menu } from '@/lib/types';
import { formatPence } from '@/lib/format';
import { getShopConfig } from '@/lib/shop-config';
import { BasketWidget } from '@/components/basket/basket-widget';
import { AccountMenu } from './account-menu';
import { HeaderShell } from './header-shell';
import { InfoModal } from './info-modal';
import { menuLinks } from '@/lib/menu-links';
import { MenuLinks } from './menu-links';
import { QuickOrderLink } from './quick-order-link';
import { SearchForm } from './search-form';
import { SnowLogo } from './snow-logo';

/** The header every page shares. */
export function SiteHeader({ menu }: { menu: Menu }) {
  const shop = getShopConfig();
  const tools = (
    <>
      <InfoModal label="Trade info" title={`Trading with ${shop.business.tradingName}`}>
        <p>We sell to trade customers only, in retail packs. Every price is a trade unit price excluding VAT.</p>
        <ul>
          <li>Minimum order {formatPence(shop.minimumOrderPence)} ex VAT.</li>
          <li>Free standard delivery on orders of {formatPence(shop.freeDeliveryThresholdPence)} or more ex VAT.</li>
          <li>Orders placed by 1pm on a working day leave the same day.</li>
        </ul>
        <p>
          Questions? Call {shop.contact.phone} ({shop.contact.hours}).
        </p>
      </InfoModal>
      <QuickOrderLink />
      <BasketWidget />
      <AccountMenu />
    </>
  );
  return <HeaderShell logo={<SnowLogo />} search={<SearchForm />} menu={<MenuLinks menu={menuLinks(menu)} />} tools={tools} />;
}
