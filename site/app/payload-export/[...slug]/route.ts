import { catchAllPage, contentParams } from '@/lib/catch-all';

// The _payload.json of every content page (help, blog), from the same data the page
// renders. Product payloads come from the catalogue snapshot.
// Next cannot nest a route under a catch-all, so these export to
// /payload-export/{page path}/_payload.json and scripts/build.mjs moves each beside
// its page.
export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams() {
  return contentParams().map(({ slug }) => ({ slug: [...slug, '_payload.json'] }));
}

export async function GET(_req: Request, { params }: { params: Promise<{ slug: string[] }> }) {
  const data = catchAllPage((await params).slug.slice(0, -1));
  if (!data) return new Response('not found', { status: 404 });
  return Response.json(data);
}
