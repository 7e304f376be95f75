// The PLC test and the live link status (spec §2 /com, §5, §8): the request the console sends and
// the answers it gets, one definition for the daemon (types of what it sends) and the console
// (which checks every answer against these schemas before showing it).
import * as v from 'valibot';
import { INTERFACE_IDS, PROTOCOLS } from './plc.ts';
import { statusReasonSchema } from './reasons.ts';

export const plcTestRequest = v.strictObject({ id: v.picklist(INTERFACE_IDS) });
export type PlcTestRequest = v.InferOutput<typeof plcTestRequest>;

/** The reset of the link counters (`/config/com_status/reset`): one interface, or every running one without `id`. */
export const counterResetRequest = v.strictObject({ id: v.optional(v.picklist(INTERFACE_IDS)) });

const count = v.pipe(v.number(), v.minValue(0));

export const linkStatusSchema = v.object({
  id: v.number(),
  name: v.string(),
  enabled: v.boolean(),
  protocol: v.picklist(PROTOCOLS),
  transport: v.picklist(['serial', 'tcp', 'internal']),
  state: v.picklist(['disabled', 'connecting', 'up', 'down', 'absent']),
  /** why the link is not up (absent when it is) */
  reason: v.optional(statusReasonSchema),
  baudRate: v.optional(v.number()),
  autobaud: v.optional(v.picklist(['searching', 'found', 'failed'])),
  stats: v.object({
    requests: count,
    errors: count,
    timeouts: count,
    retries: count,
    /** answers dropped: late (their request was given up), or fitting no request sent (docs/plc-links.md) */
    lateAnswers: count,
    mismatched: count,
    /** answers whose check code did not match, other unreadable answers, answers with a PLC error code (the last one's code) */
    checkErrors: count,
    invalidFrames: count,
    plcErrors: count,
    lastPlcError: v.optional(v.number()),
    /** times the channel was opened again after it was lost */
    reconnects: count,
    bytesOut: count,
    bytesIn: count,
    busyShare: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    /** when the counters started: the link's start or their last reset (ms since the epoch) */
    since: v.optional(v.number()),
  }),
});
export const comStatusSchema = v.object({ links: v.array(linkStatusSchema) });
export type LinkStatusView = v.InferOutput<typeof linkStatusSchema>;
export type LinkStateName = LinkStatusView['state'];

const testCommon = { id: v.number(), protocol: v.picklist(PROTOCOLS), raw: v.string() };
/** why a PLC test failed: no answer in time, an error answer, an unreadable answer, the port not usable */
export const PLC_TEST_FAILURES = ['no_answer', 'plc_error', 'bad_reply', 'link_down'] as const;
export const plcTestResultSchema = v.variant('ok', [
  v.object({
    ok: v.literal(true),
    ...testCommon,
    cpu: v.object({ name: v.string(), family: v.string() }),
    model: v.optional(v.string()),
    version: v.optional(v.string()),
    mode: v.optional(v.picklist(['RUN', 'PROG'])),
    note: v.optional(v.string()),
  }),
  v.object({
    ok: v.literal(false),
    ...testCommon,
    reason: v.picklist(PLC_TEST_FAILURES),
    message: v.string(),
    code: v.optional(v.number()),
  }),
]);
export type PlcTestResult = v.InferOutput<typeof plcTestResultSchema>;
export type PlcTestFailure = (typeof PLC_TEST_FAILURES)[number];
