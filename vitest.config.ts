import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['device/**/*.test.ts', 'hw/**/*.test.ts', 'sim/**/*.test.ts', 'web/**/*.test.ts', 'build/**/*.test.ts', 'test/fixtures/**/*.test.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
