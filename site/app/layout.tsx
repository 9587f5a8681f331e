import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { getCatalogue } from '@/lib/catalogue';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'TradeShop Wholesale: greeting cards, gift wrap and giftware for the trade', template: '%s | TradeShop Wholesale' },
  description: 'Wholesale greeting cards, Christmas, gift wrap, partyware, balloons, giftware and stationery in trade packs.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  const { menu } = getCatalogue();
  return (
    <html lang="en-GB">
      <body>
        <SiteHeader ranges={menu.ranges} />
        <main id="main">{children}</main>
        <SiteFooter />
      </body>
    </html>
  );
}
