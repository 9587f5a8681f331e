import type { MetadataRoute } from 'next';
import { absolute } from '@/lib/seo';

export const dynamic = 'force-static';

// Keeps per-buyer, back-office and search pages out of the index; points crawlers at the sitemap
// index that scripts/build.mjs writes.
export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: '*', allow: '/', disallow: ['/account/', '/admin/', '/checkout/', '/search/', '/api/'] }],
    sitemap: absolute('/sitemap.xml'),
  };
}
