import { describe, expect, it } from 'vitest';
import { failuresOf, shortFailure } from './failures.ts';

describe('the failure summary at the end of npm test', () => {
  it('names each failed test with the first lines of its message, and a file that failed to load', () => {
    const report = {
      testResults: [
        {
          name: `${process.cwd()}/device/a.test.ts`,
          status: 'failed',
          assertionResults: [
            { fullName: 'a passes', status: 'passed', failureMessages: [] },
            {
              fullName: 'a fails',
              status: 'failed',
              failureMessages: ['AssertionError: expected 1 to be 2\n\n    at a.test.ts:5:3\n    at x\n    at y\n    at z\n    at w'],
            },
          ],
        },
        { name: `${process.cwd()}/device/b.test.ts`, status: 'failed', message: 'SyntaxError: nope', assertionResults: [] },
        { name: `${process.cwd()}/device/c.test.ts`, status: 'passed', assertionResults: [{ fullName: 'c', status: 'passed' }] },
      ],
    };
    const out = failuresOf(report);
    expect(out).toEqual([
      '  ✗ device/a.test.ts > a fails\n      AssertionError: expected 1 to be 2\n          at a.test.ts:5:3\n          at x\n          at y\n          at z\n          at w',
      '  ✗ device/b.test.ts\n      SyntaxError: nope',
    ]);
    expect(shortFailure('1\n2\n3\n4\n5\n6\n7\n8').split('\n')).toHaveLength(6);
  });
});
