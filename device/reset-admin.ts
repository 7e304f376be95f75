// `npm run daemon -- reset-admin` (and `npm start -- reset-admin` for the simulator): the owner's way
// back from a login lockout (security.md AUTH-6). It needs a shell on the unit, as the daemon's
// user: it puts a reset request into the data folder, and the daemon lifts every login lock when
// it sees it (at the next login attempt, or when it starts) and records that in the audit log.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { requestLockoutReset } from './system/lockout.ts';

export async function resetAdmin(dataDir: string): Promise<void> {
  if (!existsSync(dataDir)) {
    console.error(`No data folder at ${dataDir}: give the daemon's folder with --data DIR`);
    process.exit(1);
  }
  let by = 'unknown';
  try {
    by = userInfo().username;
  } catch {
    // no user name for this uid: recorded as unknown
  }
  try {
    await requestLockoutReset(dataDir, { time: new Date().toISOString(), by });
  } catch (e) {
    console.error(`The reset request could not be written into ${dataDir}: ${(e as Error).message}`);
    process.exit(1);
  }
  console.log(
    `Every login lock will be lifted: the running daemon does it at the next login attempt, a stopped one when it starts (data in ${dataDir}). The audit log records it as lockout_reset.`,
  );
}
