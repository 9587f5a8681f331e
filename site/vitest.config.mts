import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts?(x)'],
    environment: 'node',
    // next build sets this from trailingSlash: true; next/link reads it to keep the slash.
    env: { __NEXT_TRAILING_SLASH: 'true' },
  },
});
