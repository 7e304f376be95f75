// The connection test and the live counters of the redirect threads (spec §2 /port, §9 update
// tick): the request the console sends and the answers it gets, one definition for the daemon
// (types of what it sends) and the console (which checks every answer before showing it).
import * as v from 'valibot';
import { statusReasonSchema } from './reasons.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const threadIndex = v.pipe(v.number(), v.integer(), v.minValue(0));

/** POST /config/porttest: the thread at this position of the saved threads list. */
export const portTestRequest = v.strictObject({ index: threadIndex });
export type PortTestRequest = v.InferOutput<typeof portTestRequest>;

/** The live state of one thread; `index` is its position in the saved threads list. */
export const portThreadStatusSchema = v.object({
  index: threadIndex,
  port: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)),
  listening: v.boolean(),
  /** why the thread does not listen (absent when it does) */
  reason: v.optional(statusReasonSchema),
  clients: count,
  requests: count,
  refused: count,
  errors: count,
  bytesIn: count,
  bytesOut: count,
  /** connections a contained fault ended (issue 15: a client never ends the daemon) */
  faults: count,
  /** when the counters started: the thread's start or their last reset (ms since the epoch) */
  since: v.optional(v.number()),
});

/** The reset of the thread counters (`/config/port_status/reset`): one thread by its position, or every one without `index`. */
export const portCounterResetRequest = v.strictObject({ index: v.optional(threadIndex) });
/** GET /config/port_status */
export const portStatusSchema = v.object({ threads: v.array(portThreadStatusSchema) });
export type PortThreadStatus = v.InferOutput<typeof portThreadStatusSchema>;
export type PortStatus = v.InferOutput<typeof portStatusSchema>;

/**
 * Why a connection test failed: the thread does not listen, it refused the test's connection, the
 * PLC did not answer through it, or the PLC answered with an error.
 */
export const PORT_TEST_FAILURES = ['not_listening', 'refused', 'no_answer', 'error_answer'] as const;
export type PortTestFailure = (typeof PORT_TEST_FAILURES)[number];

/** The answer of POST /config/porttest (a refusal to test is a 409 error envelope instead). */
export const portTestResultSchema = v.variant('ok', [
  v.object({
    ok: v.literal(true),
    index: threadIndex,
    /** what was sent through the thread */
    request: v.string(),
    /** the answer as received, printable */
    raw: v.string(),
  }),
  v.object({
    ok: v.literal(false),
    index: threadIndex,
    reason: v.picklist(PORT_TEST_FAILURES),
    message: v.string(),
    /** what was sent, when the test got as far as sending */
    request: v.optional(v.string()),
    raw: v.string(),
  }),
]);
export type PortTestResult = v.InferOutput<typeof portTestResultSchema>;
