// The supervisor's restart back-off (sim/supervisor.ts, docs/firmware.md): a daemon that died by
// itself is started again after 250 ms, doubling up to 60 s while it keeps dying within a minute of its
// start, so a daemon that cannot start is no tight restart loop; back to 250 ms once it ran a minute.
// The first waits are short because the usual cause is brief: the port still held by a daemon of a
// supervisor that was killed and is going away.
export const RESTART_FIRST_MS = 250;
export const RESTART_MAX_MS = 60_000;
export const RESTART_HEALTHY_MS = 60_000;

/** The wait before restarting a daemon that died after running `ranMs`; `lastMs` is the previous wait (0: none yet). */
export function nextRestartMs(lastMs: number, ranMs: number): number {
  if (lastMs === 0 || ranMs >= RESTART_HEALTHY_MS) return RESTART_FIRST_MS;
  return Math.min(lastMs * 2, RESTART_MAX_MS);
}
