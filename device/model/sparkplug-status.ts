// The Sparkplug B edge node's part of the MQTT service's status entry (device/model/service-status.ts;
// docs/sparkplug.md "Status"): where the session stands, the bdSeq of its connection, the last seq,
// the metrics it publishes, what it has published and refused, the last error.
import * as v from 'valibot';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * off: sparkplug_enable off; connecting: no MQTT session (first connect, or reconnecting with
 * back-off); awaiting_host: connected, waiting for the primary host's online STATE; online: NBIRTH
 * and DBIRTH out, reporting by exception; link_down: born, but the PLC does not answer (DDEATH);
 * error: the edge node cannot run (its settings, its folder).
 */
export const SPARKPLUG_STATES = ['off', 'connecting', 'awaiting_host', 'online', 'link_down', 'error'] as const;
export type SparkplugState = (typeof SPARKPLUG_STATES)[number];

export const sparkplugStatusSchema = v.object({
  enabled: v.boolean(),
  state: v.picklist(SPARKPLUG_STATES),
  /** this connection's bdSeq (its will's and NBIRTH's); absent before the first CONNECT */
  bdSeq: v.optional(count()),
  /** the seq of the last message published */
  seq: count(),
  /** metrics of the device (the logger's points on the PLC's interface) */
  metrics: count(),
  /**
   * messages published; births (NBIRTH); DDATA; commands taken; commands or metrics refused; passes
   * kept while not born (stored), replayed as historical DDATA, dropped from the full history queue
   */
  counters: v.object({
    published: count(),
    births: count(),
    ddata: count(),
    commands: count(),
    refused: count(),
    stored: count(),
    replayed: count(),
    dropped: count(),
  }),
  lastError: v.optional(v.object({ message: v.string(), at: v.number() })),
});
export type SparkplugStatus = v.InferOutput<typeof sparkplugStatusSchema>;
