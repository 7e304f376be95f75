import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'device/**/*.test.ts',
            'hw/**/*.test.ts',
            'sim/**/*.test.ts',
            'web/**/*.test.ts',
            'build/**/*.test.ts',
            'test/fixtures/**/*.test.ts',
            'test/docs/**/*.test.ts',
            'test/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // the console in Debian's chromium against a daemon in simulator mode (test/e2e/support.ts);
        // the console is built once into a temp folder by the global setup
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // an expect.poll waits as long as the tests' own waits (WAIT_MS in test/e2e/support.ts), not
          // vitest's 1 s: beside the integration tests on 2 cores a page can take longer to settle
          expect: { poll: { timeout: 15_000, interval: 50 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
