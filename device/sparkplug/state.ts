// A primary host application's state (Sparkplug 3.0 chapter 5, host-topic-phid-birth-payload,
// -death-payload): the retained `spBv1.0/STATE/<host id>` message, UTF-8 JSON
// `{"online": true|false, "timestamp": <ms UTC>}`, and the rule for which of them count
// (message-flow-edge-node-birth-publish-phid-wait-timestamp). Pure.

/** A STATE message larger than this is no STATE message. */
export const MAX_STATE_BYTES = 1024;

export interface HostState {
  online: boolean;
  /** ms since 1970 UTC; absent: no order information (then it counts) */
  timestamp?: number;
}

/**
 * The host state a STATE payload carries, or null when it carries none: not JSON, no boolean
 * `online` (message-flow-edge-node-birth-publish-phid-wait-online), a timestamp that is no
 * whole number ≥ 0. Unknown keys are ignored (the 3.0 drafts had bdSeq here). `legacy` also takes
 * the plain `ONLINE`/`OFFLINE` of Sparkplug 2.2 hosts (no timestamp).
 */
export function parseState(payload: Uint8Array | string, legacy = false): HostState | null {
  if (payload.length > MAX_STATE_BYTES) return null;
  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  if (legacy && (text === 'ONLINE' || text === 'OFFLINE')) return { online: text === 'ONLINE' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { online, timestamp } = json as Record<string, unknown>;
  if (typeof online !== 'boolean') return null;
  if (timestamp === undefined) return { online };
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) return null;
  return { online, timestamp };
}

/**
 * Whether a STATE counts, given the newest timestamp accepted so far (undefined: none yet): equal
 * or newer counts, older is ignored (message-flow-edge-node-birth-publish-phid-wait-timestamp,
 * operational-behavior-edge-node-termination-host-offline-timestamp). Equal must count: a host's
 * death (its will) repeats its birth's timestamp, and the broker replays the retained birth after
 * every reconnect of ours.
 */
export function stateCounts(lastAccepted: number | undefined, s: HostState): boolean {
  return lastAccepted === undefined || s.timestamp === undefined || s.timestamp >= lastAccepted;
}

/** The newest timestamp accepted once `s` counted (stateCounts). */
export const acceptedTimestamp = (lastAccepted: number | undefined, s: HostState): number | undefined =>
  s.timestamp === undefined ? lastAccepted : Math.max(s.timestamp, lastAccepted ?? 0);
