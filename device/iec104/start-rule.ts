// Who may run data transfer in the redundancy group (docs/iec104.md "lock_mode"): one started
// connection at a time (issue 35). A STARTDT act on another connection takes data transfer over and
// the started one is deactivated (Iec104Link.deactivate: it stays open, sends nothing, keeps its
// unacknowledged frames for the switch-over), unless the started connection's lock_mode is on:
// then the newcomer is refused (Iec104Link.refuseStart closes it) until the holder stops or closes.

export interface StartedConnection<T> {
  id: T;
  lockMode: boolean; // lock_mode of the connection entry the started link belongs to
}

export type StartDecision<T> = { accept: true; deactivate: T[] } | { accept: false; reason: string };

export function decideStart<T>(started: readonly StartedConnection<T>[]): StartDecision<T> {
  if (started.some((s) => s.lockMode)) return { accept: false, reason: 'data transfer is held by a connection in lock mode' };
  return { accept: true, deactivate: started.map((s) => s.id) };
}
