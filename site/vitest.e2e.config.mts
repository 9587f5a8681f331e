import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** Files run in path order, everywhere. Vitest's own order depends on its cache (by duration
 * on a warm checkout, by size on a clean clone, as in CI), so a failure that came from the
 * order would show in CI and not here; with one order, CI's runs can be repeated locally. */
class PathOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// End-to-end tests: headless Chromium against the local edge that scripts/test starts
// (SHOP_URL, AUTH_EMULATOR_HOST). One browser, files run one after another.
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    sequence: { sequencer: PathOrder },
    // expect.poll gives a page 10 s to reach the awaited state (vitest's default is 1 s: an
    // add and the basket reload after it can take longer on a loaded CI machine).
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
