import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Session servers outlive their windows: the ones a test file left behind are ended after it.
    setupFiles: ['test/support/orphan-servers.ts'],
  },
});
