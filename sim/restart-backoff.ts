// The supervisor's restart back-off (sim/supervisor.ts, docs/firmware.md): a daemon that died by
// itself is started again after 1 s, doubling up to 60 s while it keeps dying within a minute of its
// start, so a daemon that cannot start is no tight restart loop; back to 1 s once it ran a minute.
export const RESTART_FIRST_MS = 1000;
export const RESTART_MAX_MS = 60_000;
export const RESTART_HEALTHY_MS = 60_000;

/** The wait before restarting a daemon that died after running `ranMs`; `lastMs` is the previous wait (0: none yet). */
export function nextRestartMs(lastMs: number, ranMs: number): number {
  if (lastMs === 0 || ranMs >= RESTART_HEALTHY_MS) return RESTART_FIRST_MS;
  return Math.min(lastMs * 2, RESTART_MAX_MS);
}
