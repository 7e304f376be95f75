import { describe, expect, it } from 'vitest';
import { failuresOf, shortFailure, slowestOf } from './failures.ts';
import { errorText } from './failures-reporter.ts';

describe('the failure summary at the end of npm test', () => {
  it('names each failed test with the first lines of its message, and a file that failed to load', () => {
    const report = {
      files: [
        {
          file: 'device/a.test.ts',
          ms: 1200,
          state: 'failed',
          tests: 2,
          failed: [{ name: 'a fails', message: 'AssertionError: expected 1 to be 2\n\nat a.test.ts:5:3\nat x\nat y\nat z\nat w' }],
          errors: [],
        },
        { file: 'device/b.test.ts', ms: 5, state: 'failed', tests: 0, failed: [], errors: ['SyntaxError: nope'] },
        { file: 'device/c.test.ts', ms: 30_000, state: 'passed', tests: 1, failed: [], errors: [] },
      ],
    };
    expect(failuresOf(report)).toEqual([
      '  ✗ device/a.test.ts > a fails\n      AssertionError: expected 1 to be 2\n      at a.test.ts:5:3\n      at x\n      at y\n      at z\n      at w',
      '  ✗ device/b.test.ts\n      SyntaxError: nope',
    ]);
    expect(shortFailure('1\n2\n3\n4\n5\n6\n7\n8').split('\n')).toHaveLength(6);
    expect(slowestOf(report, 2)).toEqual(['    30.0 s  device/c.test.ts (1 tests)', '     1.2 s  device/a.test.ts (2 tests)']);
  });

  it('a timeout shows as vitest words it, with the place of the test, not its internal stack marker', () => {
    // the error vitest makes when a test runs past its limit: the message says so, the stack is the
    // one taken where the test was declared (its first line is vitest's marker, not the message)
    const e = {
      name: 'Error',
      message:
        'Test timed out in 5000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".',
      stack:
        'Error: STACK_TRACE_ERROR\n    at file:///x/node_modules/@vitest/runner/dist/index.js:1:1\n    at /x/device/net/node-tls.test.ts:16:3\n    at node:internal/x:1:1',
    };
    const text = errorText(e, '/x');
    expect(text.split('\n')[0]).toBe('Error: Test timed out in 5000ms.');
    expect(text).not.toContain('STACK_TRACE_ERROR');
    expect(text).toContain('at device/net/node-tls.test.ts:16:3');
    expect(text).not.toContain('node_modules');
  });
});
