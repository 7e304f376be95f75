// The live state of the TLS bridge while /tls, /tlsclient or /tlsserver is open: asked for every
// update tick (spec §9: 1500 ms), never more than one request at a time, stopped when the page
// goes. A failed call (or an answer that does not fit) only marks the status as unavailable.
import { signal } from '@preact/signals';
import { fetchTlsStatus, type TlsPartStatus, type TlsStatus } from '../api/tls-status.ts';
import { COM_STATUS_TICK_MS, watchInto } from './com-status.ts';

export const TLS_STATUS_TICK_MS = COM_STATUS_TICK_MS; // spec §9: update tick 1500 ms

/** the last answer; null before the first one and after a failed call */
export const tlsStatus = signal<TlsStatus | null>(null);
/** the last call failed (the page says "status unavailable") */
export const tlsStatusFailed = signal(false);

/** Starts the status updates of a TLS page; the returned stop ends them. */
export function watchTlsStatus(tickMs = TLS_STATUS_TICK_MS, load: () => Promise<TlsStatus> = fetchTlsStatus): () => void {
  return watchInto(tlsStatus, tlsStatusFailed, load, tickMs);
}

/** What a part does now, in the order that decides it: switched off, stopped by the PLC, listening, or not listening. */
export type TlsPartState = 'disabled' | 'stopped' | 'listening' | 'closed';

export const tlsPartState = (s: TlsPartStatus): TlsPartState =>
  !s.enabled ? 'disabled' : s.stoppedByPlc ? 'stopped' : s.listening ? 'listening' : 'closed';
