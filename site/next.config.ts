import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NextConfig } from 'next';

// functions/config/shop.json, the business constants the Go functions read too.
const shop = JSON.parse(readFileSync(path.join(process.cwd(), '..', 'functions', 'config', 'shop.json'), 'utf8')) as {
  bankTransfer: { accountName: string; sortCode: string; accountNumber: string };
};

// The build id is given by scripts/build.mjs so the export, builds/latest.json and
// builds/meta/{id}.json all name the same build.
const buildId = process.env.BUILD_ID ?? 'dev';

const config: NextConfig = {
  output: 'export',
  trailingSlash: true,
  reactStrictMode: true,
  poweredByHeader: false,
  images: { unoptimized: true },
  generateBuildId: async () => buildId,
  // Static generation is the bulk of a build (one page per product): use every core.
  experimental: { cpus: Math.max(1, os.availableParallelism()) },
  env: {
    NEXT_PUBLIC_BUILD_ID: buildId,
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
