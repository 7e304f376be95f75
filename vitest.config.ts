import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // the files of a worker share one import of their modules (each file in a fresh worker
          // imported everything anew: most of a short file's time); every test takes its own ports,
          // data folders and daemons, and the handle guard installs once per process
          isolate: false,
          // a file or folder handle left for the garbage collector to close fails the file (test/support/handle-guard.ts)
          setupFiles: ['test/support/handle-guard-setup.ts'],
          execArgv: ['--expose-gc'],
          maxWorkers: 2,
          // a limit for a test that hangs, not a speed limit: with two busy loops, a simulator and the
          // browser tests beside them on 2 cores, a unit test of 1 s alone can take several times that
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // an expect.poll waits for its condition as long as a busy machine may need, not vitest's 1 s
          expect: { poll: { timeout: 15_000, interval: 50 } },
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
          // one import per worker, as for the unit tests
          isolate: false,
          // a file or folder handle left for the garbage collector to close fails the file (test/support/handle-guard.ts)
          // and the daemon's fetch classes in the globals, as the daemon has them, for every client library a test drives (test/support/daemon-globals-setup.ts)
          setupFiles: ['test/support/handle-guard-setup.ts', 'test/support/daemon-globals-setup.ts'],
          execArgv: ['--expose-gc'],
          include: ['test/integration/**/*.test.ts'],
          expect: { poll: { timeout: 15_000, interval: 50 } },
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // two files at a time: most of their time is spent waiting on sockets, timers, child
          // processes and peers; each takes its own ports, data folders and peer servers. Three at a
          // time was faster (a whole run in 14.9 minutes) but left too little CPU to the daemons
          // under test: a login flood's logger missed a record and late PLC answers all came past
          // their timeout on a quiet machine
          maxWorkers: 2,
        },
      },
      {
        // the console in Debian's chromium against a daemon in simulator mode (test/e2e/support.ts);
        // the console is built once into a temp folder by the global setup
        test: {
          name: 'e2e',
          // one import per worker, as for the unit tests
          isolate: false,
          // a file or folder handle left for the garbage collector to close fails the file (test/support/handle-guard.ts)
          setupFiles: ['test/support/handle-guard-setup.ts'],
          execArgv: ['--expose-gc'],
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // an expect.poll waits as long as the tests' own waits (WAIT_MS in test/e2e/support.ts), not
          // vitest's 1 s: beside the integration tests on 2 cores a page can take longer to settle
          expect: { poll: { timeout: 15_000, interval: 50 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // two files at a time, each with its own daemon, data folder, ports and browser: most of a
          // browser test's time is spent waiting on the page, the daemon and the network
          maxWorkers: 2,
        },
      },
    ],
  },
});
