// @ts-check
// Measures a page's first-load JavaScript: every <script src> in its exported HTML
// that a modern browser loads (noModule polyfills are skipped, as such browsers never
// fetch them), gzipped at level 9 as the CDN would serve it. Used by the bench command.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Answers { files, rawBytes, gzipBytes, inlineGzipBytes } for the page at pagePath. */
export function firstLoadJS(exportDir, pagePath) {
  const html = readFileSync(path.join(exportDir, pagePath, 'index.html'), 'utf8');
  const tags = [...html.matchAll(/<script([^>]+)>/g)].map((m) => m[1]).filter((a) => /\bsrc="/.test(a) && !/\bnoModule\b/i.test(a));
  const srcs = [...new Set(tags.flatMap((a) => a.match(/\bsrc="([^"]+)"/)?.[1] ?? []))];
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const src of srcs) {
    const body = readFileSync(path.join(exportDir, decodeURIComponent(src.split('?')[0])));
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('');
  return { files: srcs.length, rawBytes, gzipBytes, inlineGzipBytes: gzipSync(inline, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'site/out', page = '/outlet/section/female-birthday-cards/101/'] = process.argv.slice(2);
  console.log(JSON.stringify(firstLoadJS(dir, page)));
}
