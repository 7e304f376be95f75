// The live state of the TLS bridge (spec §3 pew_tls): each part's listener, the PLC's stop, and the
// counters of its connections. The `tls` entry of `GET /config/service_status` (service-status.ts);
// the console checks the answer against this schema, the daemon builds it (device/tls/).
import * as v from 'valibot';
import { statusReasonSchema } from './reasons.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

export const tlsPartCountersSchema = v.object({
  /** connections carried to the destination since the part started */
  accepted: count(),
  /** clients turned away: address not allowed, or the PLC stopped the part */
  refused: count(),
  /** TLS handshakes that failed (untrusted or missing certificate, version below the minimum …) */
  tlsFailures: count(),
  /** destinations that could not be reached, connections that broke */
  errors: count(),
  /** connections a contained fault ended (net/connection-guard.ts) */
  faults: count(),
});
export type TlsPartCounters = v.InferOutput<typeof tlsPartCountersSchema>;

export const tlsPartStatusSchema = v.object({
  ...tlsPartCountersSchema.entries,
  /** the part's switch in the saved section */
  enabled: v.boolean(),
  /** the port it listens on: nontls_server_port (client part), tls_server_port (server part) */
  port: count(),
  listening: v.boolean(),
  /** the PLC stopped the part through its control register (docs/tls.md) */
  stoppedByPlc: v.boolean(),
  /** why the part does not listen, when it does not */
  reason: v.optional(statusReasonSchema),
  /** connections open now */
  connections: count(),
  /** payload bytes from the clients to the destination, and back */
  bytesIn: count(),
  bytesOut: count(),
});
export type TlsPartStatus = v.InferOutput<typeof tlsPartStatusSchema>;

export const tlsStatusSchema = v.object({
  client: tlsPartStatusSchema,
  server: tlsPartStatusSchema,
});
export type TlsStatus = v.InferOutput<typeof tlsStatusSchema>;
