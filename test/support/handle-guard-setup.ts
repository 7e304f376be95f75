// Setup file of the unit, integration and e2e projects (vitest.config.ts): a file handle or folder
// handle left for the garbage collector to close fails the test file (handle-guard.ts).
import { afterAll } from 'vitest';
import { installHandleGuard } from './handle-guard.ts';

const guard = installHandleGuard();

afterAll(async () => {
  const { warnings, leaks } = await guard.collect();
  if (warnings.length === 0 && leaks.length === 0) return;
  const lines = [
    'a file or folder handle was left open and closed by the garbage collector: close every handle on every path (try/finally, or an owner that closes it)',
    ...warnings.map((w) => `warning: ${w}`),
    ...leaks,
  ];
  throw new Error(lines.join('\n'));
});
