// The answer of every connection test of a service page (spec §2 service layout; the SQL test
// `get_sqltest`, the NoSQL test `get_nosqltest`, the REST test `/apitest`, and the connection tests
// of MQTT, FTP, HTTP client and e-mail at `servicetest/<section>`): what was checked against which
// peer, in order, and on failure why, with the peer's own words. A peer that fails the test is an
// answer (200, ok false); a test the daemon refuses to run (service disabled, settings invalid) is
// an error envelope.
import * as v from 'valibot';

/** what a test checks, in the order it checks them */
export const TEST_STEPS = ['resolve', 'connect', 'proxy', 'tls', 'login', 'database', 'table', 'request', 'write', 'read', 'list', 'send'] as const;
export type TestStep = (typeof TEST_STEPS)[number];

/**
 * why a test failed: host name unknown, nothing listening, no answer in time, the peer's TLS
 * certificate not trusted, the TLS version refused, user or password wrong, a database, table or
 * path missing, the peer answered with an error of its own, the answer not understood, a table
 * that exists with other columns than the data points need (the SQL client would not write to it).
 */
export const TEST_FAILURES = [
  'unknown_host',
  'refused',
  'timeout',
  'tls_untrusted',
  'tls_version',
  'auth_failed',
  'not_found',
  'peer_error',
  'bad_reply',
  'table_mismatch',
] as const;
export type TestFailure = (typeof TEST_FAILURES)[number];

export const serviceTestResultSchema = v.object({
  ok: v.boolean(),
  /** the peer as configured: host:port or URL (never with a password) */
  peer: v.string(),
  /** from start to result */
  ms: v.number(),
  /** every step tried, in order; the last one failed when ok is false */
  steps: v.array(v.object({ step: v.picklist(TEST_STEPS), ok: v.boolean(), detail: v.optional(v.string()) })),
  /** on failure: why, and the peer's (or the system's) message as it was given */
  failure: v.optional(v.object({ reason: v.picklist(TEST_FAILURES), message: v.string() })),
});
export type ServiceTestResult = v.InferOutput<typeof serviceTestResultSchema>;

/**
 * The lines of a test answered as it runs (`Accept: application/x-ndjson`, docs/api.md servicetest):
 * a step begins, a step ended (as in `steps`), and last the whole result, or an error envelope
 * when the test itself broke.
 */
export const testProgressLineSchema = v.union([
  v.object({ running: v.picklist(TEST_STEPS) }),
  v.object({ step: serviceTestResultSchema.entries.steps.item }),
  v.object({ result: serviceTestResultSchema }),
  v.object({ error: v.object({ code: v.string(), message: v.optional(v.string()) }) }),
]);
export type TestProgressLine = v.InferOutput<typeof testProgressLineSchema>;
/** what a running test tells while it runs */
export type TestProgress = Extract<TestProgressLine, { running: unknown } | { step: unknown }>;
