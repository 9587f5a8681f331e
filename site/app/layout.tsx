import type { Metadata, Viewport } from 'next';
import { Suspense, type ReactNode } from 'react';
import { AccountProvider } from '@/components/account/account-provider';
import { AppBehaviours } from '@/components/app/app-behaviours';
import { ArchUrl } from '@/components/app/arch-url';
import { PageGuard } from '@/components/app/page-guard';
import { SiteFooter } from '@/components/layout/site-footer';
import { SiteHeader } from '@/components/layout/site-header';
import { StagingNotice } from '@/components/layout/staging-notice';
import { ToastRegion } from '@/components/toast/toast-region';
import { getCatalogue } from '@/lib/catalogue';
import { siteName, siteUrl } from '@/lib/seo';
import { SIGNIN_HINT_SCRIPT } from '@/lib/signin-hint';
import './globals.css';

// The version of the site's code (scripts/build.mjs, codeVersion), not the release: a page
// does not name its release, so two builds of the same code and data write the same bytes.
const codeVersion = process.env.NEXT_PUBLIC_CODE_VERSION ?? 'dev';

export const metadata: Metadata = {
  metadataBase: new URL(siteUrl),
  title: { default: `${siteName}: greeting cards, gift wrap and giftware for the trade`, template: `%s | ${siteName}` },
  description: 'Wholesale greeting cards, Christmas, gift wrap, partyware, balloons, giftware and stationery in trade packs.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#a4161a' };

export default function RootLayout({ children }: { children: ReactNode }) {
  const { menu } = getCatalogue();
  return (
    // suppressHydrationWarning: the sign-in hint script may mark <html> before React hydrates.
    <html lang="en-GB" data-code={codeVersion} suppressHydrationWarning>
      <head>
        {/* Before the first paint: hide the prerendered Register / Sign In on a browser that was signed in last time. */}
        <script dangerouslySetInnerHTML={{ __html: SIGNIN_HINT_SCRIPT }} />
        {/* Filled in on load (GET /api/csrf, components/app/app-behaviours.tsx); the fetch helper sends it. */}
        <meta name="csrf-token" content="" />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <StagingNotice />
        <SiteHeader menu={menu} />
        <main id="main" tabIndex={-1}>
          <PageGuard>{children}</PageGuard>
        </main>
        <SiteFooter />
        <ToastRegion />
        <AppBehaviours codeVersion={codeVersion} />
        <Suspense fallback={null}>
          <ArchUrl />
        </Suspense>
        <AccountProvider />
      </body>
    </html>
  );
}
