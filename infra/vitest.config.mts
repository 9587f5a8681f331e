import { defineConfig } from 'vitest/config';

/** Vitest settings for the CDK tests: node only, and room for the first aws-cdk-lib load. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
