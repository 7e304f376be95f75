// The answer of every connection test of a service page (spec §2 service layout; the SQL test
// `get_sqltest`, the NoSQL test `get_nosqltest`, the REST test `/apitest`, and the connection tests
// of MQTT, FTP, HTTP client and e-mail at `servicetest/<section>`): what was checked against which
// peer, in order, and on failure why, with the peer's own words. A peer that fails the test is an
// answer (200, ok false); a test the daemon refuses to run (service disabled, settings invalid) is
// an error envelope.
import * as v from 'valibot';
import { codedText, codedTextSchema } from './coded-text.ts';

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

/**
 * What a step that passed found (and, for a failure, what the daemon saw go wrong), as a code the console words in its language (the `notes` of the
 * service test texts, web/i18n): the values the text names in `args` (addresses, names, counts,
 * the TLS handshake's protocol, cipher and subject), and in `words` the peer's own words (a
 * greeting, a status line, a server version, a list of columns), shown as they came after the text.
 */
export const TEST_NOTES = [
  // connect, proxy: what was reached
  'reached',
  'server_reached',
  'server_reached_auto',
  'server_reached_proxy',
  'server_reached_proxy_auto',
  'proxy_tunnel',
  'greeting',
  // tls: the handshake (protocol, cipher, the certificate's subject) and how it was checked
  'tls',
  'server_tls',
  'tls_starttls',
  'tls_implicit',
  'tls_verified_ca',
  'tls_verified_system',
  'tls_unverified',
  // login
  'login_as',
  'login_anonymous',
  'login_reply',
  'login_ascii',
  // database, table
  'database',
  'database_ping',
  'measurements',
  'table_exists',
  'table_missing',
  // request, list, write, read
  'http_get',
  'http_get_headers',
  'influx_ping',
  'rest_info',
  'listed',
  'listed_home',
  'file_written',
  'influx_write',
  'influx_write_user',
  'document_written',
  'document_written_created',
  'published',
  'received',
  // why a step failed, where the daemon tells it (the failure's note)
  'no_answer_within',
  'no_greeting_within',
  'no_answer_to_within',
  'closed_in_handshake',
  'closed_after',
  'closed_without_greeting',
  'proxy_answer',
  'starttls_refused',
  'broker_closed_login',
  'subscription_refused',
  'received_other',
  'not_json',
  'not_influx',
  'not_influx_server',
  'database_missing',
  'database_missing_none',
  'document_not_deleted',
  'rest_other_cert',
  'rest_outside_range',
  'rest_not_info',
] as const;
export type TestNoteCode = (typeof TEST_NOTES)[number];

export const testNoteSchema = codedTextSchema(TEST_NOTES);
export type TestNote = v.InferOutput<typeof testNoteSchema>;

export const testNote = (code: TestNoteCode, args?: Record<string, string | number>, words?: string): TestNote => codedText(code, args, words);

export const serviceTestResultSchema = v.object({
  ok: v.boolean(),
  /** the peer as configured: host:port or URL (never with a password) */
  peer: v.string(),
  /** from start to result */
  ms: v.number(),
  /** every step tried, in order; the last one failed when ok is false (why is the failure) */
  steps: v.array(v.object({ step: v.picklist(TEST_STEPS), ok: v.boolean(), note: v.optional(testNoteSchema) })),
  /**
   * on failure: why, and the peer's (or the system's) message as it was given; where the daemon
   * tells what happened in its own words, also as a note the console words in its language
   */
  failure: v.optional(v.object({ reason: v.picklist(TEST_FAILURES), message: v.string(), note: v.optional(testNoteSchema) })),
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
