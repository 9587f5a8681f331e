import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NextConfig } from 'next';

// functions/config/shop.json, the business constants the Go functions read too.
const shop = JSON.parse(readFileSync(path.join(process.cwd(), '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  bankTransfer: { accountName: string; sortCode: string; accountNumber: string };
};

// Next's build id is the version of the site's code, given by scripts/build.mjs
// (codeVersion: a hash of what the client code is built from), not the release's id, which
// only builds/latest.json and builds/meta/{id}.json name. Two builds of the same code and
// data then write the same bytes, and publishing skips every unchanged page.
const codeVersion = process.env.CODE_VERSION ?? 'dev';

const config: NextConfig = {
  output: 'export',
  trailingSlash: true,
  reactStrictMode: true,
  poweredByHeader: false,
  images: { unoptimized: true },
  generateBuildId: async () => codeVersion,
  // Static generation is the bulk of a build (one page per product): use every core.
  experimental: { cpus: Math.max(1, os.availableParallelism()) },
  env: {
    NEXT_PUBLIC_CODE_VERSION: codeVersion,
    // The version setting: local, staging or production (a staging notice shows on staging).
    NEXT_PUBLIC_SITE_VERSION: process.env.SITE_VERSION ?? 'local',
    // Pro-forma payment instructions on the order pages (client components).
    NEXT_PUBLIC_BANK_TRANSFER: JSON.stringify({
      accountName: shop.bankTransfer.accountName,
      sortCode: shop.bankTransfer.sortCode,
      accountNumber: shop.bankTransfer.accountNumber,
    }),
  },
};

export default config;
