import NextLink from 'next/link';
import type { ComponentProps } from 'react';

/** The shop's internal link: next/link with Next's own prefetching switched off. A
 * navigation fetches the target's one RSC file (index.txt) when it is clicked, so the
 * export keeps no per-segment prefetch files (scripts/build.mjs removes them), and
 * nothing is fetched while a page loads; the shop's prefetch (lib/prefetch.ts) warms
 * linked pages' _payload.json on hover and focus, and in view once the load has settled. */
export default function Link(props: Omit<ComponentProps<typeof NextLink>, 'prefetch'>) {
  return <NextLink {...props} prefetch={false} />;
}
