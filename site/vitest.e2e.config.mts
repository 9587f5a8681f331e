import { defineConfig } from 'vitest/config';

// End-to-end tests: headless Chromium against the local edge that scripts/test starts
// (SHOP_URL, AUTH_EMULATOR_HOST). One browser, files run one after another.
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
