// The traffic monitor's requests and answers (docs/monitor.md, docs/api.md "monitor"): one
// definition for the daemon, which checks every request against it, and the console, which checks
// every answer against it before showing it.
import * as v from 'valibot';
import { intText, obj } from './fields.ts';
import { msg } from './issues.ts';

export const CAPTURE_MINUTES_DEFAULT = 10;
export const CAPTURE_MINUTES_MAX = 60;

/** events: connection events only; frames: decoded frames; raw: decoded frames with their bytes */
export const CAPTURE_LEVELS = ['events', 'frames', 'raw'] as const;
export type CaptureLevel = (typeof CAPTURE_LEVELS)[number];

/** how a source's bytes are cut into frames and decoded */
export const CAPTURE_PROTOCOLS = ['mewtocol', 'mewtocol7', 'modbus_rtu', 'modbus_tcp', 'iec104'] as const;
export type CaptureProtocol = (typeof CAPTURE_PROTOCOLS)[number];

/** what happened on a source besides frames; `args` are plain values the console words */
export const CAPTURE_EVENTS = [
  'capture_started',
  'capture_stopped',
  'link_up',
  'link_down',
  'no_answer',
  'client_connected',
  'client_refused',
  'client_closed',
  'request_refused',
] as const;
export type CaptureEventCode = (typeof CAPTURE_EVENTS)[number];

/** a source: a PLC link by its interface name, a redirect thread by its port, the IEC 104 station */
export const SOURCE_PATTERN = /^(COM[1-4]|INTERNAL|port:\d{1,5}|iec104)$/;
export const SOURCES_MAX = 12;
/** records one read answers at most */
export const READ_MAX = 500;

const source = v.pipe(
  v.string(msg('type', { expected: 'string' })),
  v.regex(SOURCE_PATTERN, msg('invalid_value', { allowed: 'COM1-COM4, INTERNAL, port:<n>, iec104' })),
);

export const monitorStartRequest = obj({
  sources: v.pipe(
    v.array(source, msg('type', { expected: 'array' })),
    v.minLength(1, msg('required')),
    v.maxLength(SOURCES_MAX, msg('too_many', { max: SOURCES_MAX })),
  ),
  level: v.picklist(CAPTURE_LEVELS, msg('invalid_value', { allowed: CAPTURE_LEVELS.join(', ') })),
  minutes: v.optional(
    v.pipe(
      v.number(msg('type', { expected: 'number' })),
      v.integer(msg('not_integer')),
      v.minValue(1, msg('out_of_range', { min: 1, max: CAPTURE_MINUTES_MAX })),
      v.maxValue(CAPTURE_MINUTES_MAX, msg('out_of_range', { min: 1, max: CAPTURE_MINUTES_MAX })),
    ),
    CAPTURE_MINUTES_DEFAULT,
  ),
});
export type MonitorStartRequest = v.InferOutput<typeof monitorStartRequest>;

const COMMAND = /^[A-Za-z0-9_]{1,8}$/;
/** what a read asks for: records after `after`, of one source, one direction, one command, errors only */
export const monitorQuery = obj({
  after: intText(0, Number.MAX_SAFE_INTEGER, 0),
  max: intText(1, READ_MAX, READ_MAX),
  source: v.optional(source),
  dir: v.optional(v.picklist(['in', 'out'], msg('invalid_value', { allowed: 'in, out' }))),
  command: v.optional(v.pipe(v.string(), v.regex(COMMAND, msg('invalid_characters')))),
  errors: v.optional(v.picklist(['0', '1'], msg('invalid_value', { allowed: '0, 1' }))),
});
export type MonitorQuery = v.InferOutput<typeof monitorQuery>;

/** the pcap or text download of what the capture holds (after `after`, of one source) */
export const monitorDownloadQuery = obj({
  format: v.optional(v.picklist(['text', 'pcap'], msg('invalid_value', { allowed: 'text, pcap' })), 'text'),
  after: intText(0, Number.MAX_SAFE_INTEGER, 0),
  source: v.optional(source),
});

const count = v.pipe(v.number(), v.minValue(0));
const num = v.number();

export const captureStateSchema = v.object({
  on: v.boolean(),
  sources: v.array(v.string()),
  level: v.picklist(CAPTURE_LEVELS),
  startedAt: v.optional(num),
  until: v.optional(num),
  by: v.optional(v.string()),
  ended: v.optional(v.picklist(['stopped', 'timeout'])),
});
export type CaptureStateView = v.InferOutput<typeof captureStateSchema>;

export const decodedFrameSchema = v.object({
  what: v.picklist(['request', 'answer', 'error', 'unreadable', 'continued', 'iec']),
  command: v.optional(v.string()),
  station: v.optional(v.string()),
  area: v.optional(v.string()),
  start: v.optional(num),
  count: v.optional(num),
  values: v.optional(v.array(num)),
  more: v.optional(count),
  error: v.optional(v.object({ table: v.picklist(['mewtocol', 'modbus']), code: num, key: v.string() })),
  problem: v.optional(v.string()),
  id: v.optional(num),
  iec: v.optional(
    v.object({
      u: v.optional(v.string()),
      ns: v.optional(num),
      nr: v.optional(num),
      type: v.optional(v.string()),
      typeId: v.optional(num),
      cot: v.optional(num),
      negative: v.optional(v.boolean()),
      test: v.optional(v.boolean()),
      objects: v.optional(count),
      ioas: v.optional(v.array(num)),
    }),
  ),
});

export const monitorRecordSchema = v.object({
  seq: num,
  t: num,
  source: v.string(),
  peer: v.optional(v.string()),
  kind: v.picklist(['frame', 'event']),
  dir: v.optional(v.picklist(['in', 'out'])),
  protocol: v.optional(v.picklist(CAPTURE_PROTOCOLS)),
  rttMs: v.optional(count),
  decoded: v.optional(decodedFrameSchema),
  /** the frame printable (ASCII protocols as text, CR as ⏎) and as hex: at level raw */
  text: v.optional(v.string()),
  hex: v.optional(v.string()),
  bytes: v.optional(count),
  event: v.optional(v.picklist(CAPTURE_EVENTS)),
  args: v.optional(v.record(v.string(), v.union([v.string(), num]))),
});
export type MonitorRecord = v.InferOutput<typeof monitorRecordSchema>;

export const monitorSourceSchema = v.object({
  id: v.string(),
  kind: v.picklist(['link', 'thread', 'iec104']),
  protocol: v.picklist(CAPTURE_PROTOCOLS),
  /** a link's state, a thread's listening */
  active: v.boolean(),
});
export type MonitorSource = v.InferOutput<typeof monitorSourceSchema>;

export const monitorAnswerSchema = v.object({
  capture: captureStateSchema,
  held: v.object({ records: count, bytes: count, maxRecords: count, maxBytes: count }),
  sources: v.array(monitorSourceSchema),
  records: v.array(monitorRecordSchema),
  /** the cursor for the next read: the last record looked at */
  next: count,
  /** records after `after` that the ring dropped before this read */
  lost: count,
});
export type MonitorAnswer = v.InferOutput<typeof monitorAnswerSchema>;
