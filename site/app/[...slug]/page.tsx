import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Breadcrumbs } from '@/components/layout/breadcrumbs';
import { catchAllPage, catchAllParams } from '@/lib/content-routes';

type Params = { slug: string[] };

export const dynamicParams = false;
export const generateStaticParams = catchAllParams;

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const data = catchAllPage((await params).slug);
  if (!data) return {};
  if (data.kind === 'blog-index') {
    return { title: 'Trade blog', description: 'Ordering guides and retail tips for independent card and gift shops from TradeShop Wholesale.' };
  }
  return { title: data.page.title, description: data.page.description };
}

export default async function CatchAllPage({ params }: { params: Promise<Params> }) {
  const data = catchAllPage((await params).slug);
  if (!data) notFound();
  if (data.kind === 'blog-index') {
    return (
      <>
        <Breadcrumbs trail={[{ name: 'Home', path: '/' }, { name: 'Blog', path: '/blog/' }]} />
        <h1>Trade blog</h1>
        <ul className="post-list">
          {data.posts.map((p) => (
            <li key={p.path}>
              <h2>
                <Link href={p.path}>{p.title}</Link>
              </h2>
              {p.date && <p className="muted">{new Date(p.date).toLocaleDateString('en-GB', { dateStyle: 'long' })}</p>}
              <p>{p.description}</p>
            </li>
          ))}
        </ul>
      </>
    );
  }
  const { page } = data;
  const section = page.section === 'blog' ? { name: 'Blog', path: '/blog/' } : { name: 'Help', path: '/help/faq/' };
  return (
    <article className="prose">
      <Breadcrumbs trail={[{ name: 'Home', path: '/' }, section, { name: page.title, path: page.path }]} />
      <h1>{page.title}</h1>
      {page.date && <p className="muted">{new Date(page.date).toLocaleDateString('en-GB', { dateStyle: 'long' })}</p>}
      <div dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
