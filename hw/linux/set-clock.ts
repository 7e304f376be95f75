// Sets the unit's clock (an IEC 104 control station's clock sync). Runs date directly through
// execFile: no shell, fixed arguments, the instant a number checked here (security.md INJ-1).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `date` arguments that set the system clock to `epochMs` (UTC, to the millisecond). */
export function dateArgs(epochMs: number): string[] {
  if (!Number.isSafeInteger(epochMs) || epochMs < 0) throw new RangeError(`not an instant: ${String(epochMs)}`);
  return ['-u', '-s', `@${Math.floor(epochMs / 1000)}.${String(epochMs % 1000).padStart(3, '0')}`];
}

export async function setSystemClock(epochMs: number): Promise<void> {
  await run('date', dateArgs(epochMs), { timeout: 10_000 });
}
