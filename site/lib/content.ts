import 'server-only';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { Marked } from 'marked';
import { formatPence } from './format';
import { getShopConfig, type ShopConfig } from './shop-config';

/** A Markdown page of site/content, rendered. */
export interface ContentPage {
  /** Site path, with its trailing slash: /help/faq/ */
  path: string;
  section: 'help' | 'blog';
  slug: string;
  title: string;
  description: string;
  date?: string;
  html: string;
}

const contentDir = path.join(process.cwd(), 'content');
const marked = new Marked({ gfm: true });

/** The values {{name}} placeholders in the Markdown stand for, from shop.json. */
export function placeholders(c: ShopConfig): Record<string, string> {
  const options = c.deliveryOptions.map((o) => `**${o.name}:** ${formatPence(o.chargePence)} excluding VAT`);
  return {
    minimumOrder: formatPence(c.minimumOrderPence),
    freeDeliveryThreshold: formatPence(c.freeDeliveryThresholdPence),
    deliveryOptions: options.join('\n- '),
    phone: c.contact.phone,
    email: c.contact.email,
    address: c.contact.address,
    hours: c.contact.hours,
    tradingName: c.business.tradingName,
    legalName: c.business.legalName,
    registeredIn: c.business.registeredIn,
    registeredAddress: c.business.registeredAddress,
    companyNumber: c.business.companyNumber,
    vatNumber: c.business.vatNumber,
  };
}

/** Replaces {{name}} placeholders; an unknown name is a build error, not a blank. */
export function fillPlaceholders(text: string, values: Record<string, string>, file = 'content'): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`${file}: unknown placeholder {{${name}}}`);
    return v;
  });
}

function load(section: 'help' | 'blog', file: string): ContentPage {
  const full = path.join(contentDir, section, file);
  const { data, content } = matter(readFileSync(full, 'utf8'));
  const title = String(data.title ?? '');
  const description = String(data.description ?? '');
  if (!title || !description) throw new Error(`${full}: front matter needs title and description`);
  const slug = file.replace(/\.md$/, '');
  const body = fillPlaceholders(content, placeholders(getShopConfig()), full);
  const date = data.date instanceof Date ? data.date.toISOString().slice(0, 10) : data.date ? String(data.date) : undefined;
  return {
    path: `/${section}/${slug}/`,
    section,
    slug,
    title: fillPlaceholders(title, placeholders(getShopConfig()), full),
    description: fillPlaceholders(description, placeholders(getShopConfig()), full),
    ...(date && { date }),
    html: marked.parse(body, { async: false }),
  };
}

let pages: ContentPage[] | undefined;

/** Every help page and blog post, blog newest first. */
export function contentPages(): ContentPage[] {
  if (!pages) {
    const read = (section: 'help' | 'blog') =>
      readdirSync(path.join(contentDir, section))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => load(section, f));
    const blog = read('blog').sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
    pages = [...read('help'), ...blog];
  }
  return pages;
}

/** The content page at a path, if any. */
export function contentPage(pagePath: string): ContentPage | undefined {
  return contentPages().find((p) => p.path === pagePath);
}

/** The blog posts, newest first. */
export const blogPosts = (): ContentPage[] => contentPages().filter((p) => p.section === 'blog');
