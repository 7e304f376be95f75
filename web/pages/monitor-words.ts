// A record of the traffic monitor in the user's language (docs/monitor.md "Decoded meaning"): the
// decoded parts the unit sends (command, area and range, values, an error code with its table key,
// why a frame cannot be read, the IEC 104 APCI and ASDU) and the events with their values, worded
// from the `monitor` texts; the names of the protocols themselves (RD, FC3, M_SP_NA_1, COT) stay as
// they are.
import type { MonitorRecord, MonitorSource } from '../../device/model/monitor.ts';
import { STATUS_REASONS, type StatusReasonCode } from '../../device/model/reasons.ts';
import type { TranslationFunctions } from '../i18n/i18n-types.ts';
import { loadedLocales } from '../i18n/i18n-util.ts';
import { labelled, locale, reasonText } from '../i18n/translate.ts';

type Texts = TranslationFunctions['monitor'];
type Decoded = NonNullable<MonitorRecord['decoded']>;
/** a part of the texts looked up by a key the unit sends; unknown keys are shown as they came */
type Table = Record<string, (() => string) | undefined>;

const READS = /^(RD|RC[SPC]|RS|RK|MMRD|FC[1-4])$/;
const WRITES = /^(WD|WC[SPC]|WS|WK|FC(5|6|15|16))$/;
const STATUS = /^(RT|EXRT|STRD)$/;
/** the events that mean something went wrong (as the unit's `errors=1` filter counts them) */
const BAD_EVENTS: readonly string[] = ['no_answer', 'link_down', 'client_refused', 'request_refused'];

const word = (table: unknown, key: string): string => (table as Table)[key]?.() || key;

/**
 * The link's status reason, when its text can be worded with the values the event carries (the
 * unit's link_down event carries the reason's values; a record that lacks one is not worded with
 * empty places); else nothing.
 */
function linkReason(code: unknown, args: Record<string, string | number>): string {
  if (typeof code !== 'string' || !(STATUS_REASONS as readonly string[]).includes(code)) return '';
  const text = (loadedLocales[locale.value]?.errors?.reasons as Record<string, string> | undefined)?.[code] ?? '';
  return [...text.matchAll(/\{(\w+)/g)].every((m) => m[1]! in args) ? reasonText({ code: code as StatusReasonCode, args }) : '';
}

/** A source as the page names it: COM1 …, "Port 9094", "Modbus gateway, port 502", "IEC 104 station". */
export function sourceName(t: Texts, id: string, sources: readonly MonitorSource[]): string {
  if (id === 'iec104') return t.iec104();
  if (!id.startsWith('port:')) return id;
  const port = id.slice(5);
  return sources.find((s) => s.id === id)?.protocol === 'modbus_tcp' ? t.gateway({ port }) : t.portName({ port });
}

/** An error answer, a frame that cannot be read, or an event that says something went wrong. */
export const isBad = (r: MonitorRecord): boolean =>
  r.kind === 'event' ? BAD_EVENTS.includes(r.event ?? '') : r.decoded?.what === 'error' || r.decoded?.what === 'unreadable';

const values = (t: Texts, d: Decoded) => (d.values ? ` = ${d.values.join(', ')}${d.more ? ` (${t.more({ n: d.more })})` : ''}` : '');

function iecText(t: Texts, d: Decoded): string {
  const i = d.iec ?? {};
  if (i.u) {
    const [fn = '', part = ''] = i.u.split('_');
    return `U ${fn.toUpperCase()} ${part}`;
  }
  if (d.command === 'S') return `S N(R) ${i.nr}`;
  const parts = [`I N(S) ${i.ns} N(R) ${i.nr}`];
  if (i.type) parts.push([i.type, `COT ${i.cot}`, ...(i.negative ? [t.negative()] : []), ...(i.test ? [t.test()] : [])].join(' '));
  if (i.ioas?.length) {
    const more = (i.objects ?? 0) - i.ioas.length;
    parts.push(`IOA ${i.ioas.join(', ')}${more > 0 ? ` (${t.more({ n: more })})` : ''}${values(t, d)}`);
  }
  return parts.join(' · ');
}

/** What a frame means: "Read DT 10–11 = 4660, 7", "Error 61: data error", "Unreadable: check code (BCC) wrong" … */
export function frameText(t: Texts, d: Decoded): string {
  if (d.what === 'unreadable') return t.unreadable({ why: word(t.problems, d.problem ?? '') });
  if (d.what === 'continued') return t.continued();
  if (d.what === 'iec') return iecText(t, d);
  const cmd = d.command ?? '';
  const op = READS.test(cmd) ? t.read() : WRITES.test(cmd) ? t.write() : STATUS.test(cmd) ? t.status() : cmd;
  const end = d.start !== undefined && d.count !== undefined && d.count > 1 ? `–${d.start + d.count - 1}` : '';
  const where = d.area ? `${word(t.areas, d.area)}${d.start !== undefined ? ` ${d.start}${end}` : ''}` : '';
  const text = [op, where].filter(Boolean).join(' ') + values(t, d);
  if (d.error) {
    const e = d.error;
    const error = t.error({
      code: e.table === 'mewtocol' ? String(e.code).padStart(2, '0') : String(e.code),
      text: word(e.table === 'mewtocol' ? t.mew : t.modbus, e.key),
    });
    return text ? labelled(text, error) : error;
  }
  return d.what === 'answer' && !d.values && text ? labelled(text, t.done()) : text;
}

/** What an event says, with its values: "Link down: No answer from the PLC.", "Client refused: …" */
export function eventText(t: Texts, r: MonitorRecord): string {
  const { reason, ...args } = r.args ?? {};
  const e = t.events;
  switch (r.event) {
    case 'capture_started':
      return e.capture_started({ level: word(t.levels, String(args.level)), minutes: String(args.minutes) });
    case 'capture_stopped':
      return args.why === 'timeout' ? e.capture_timeout() : e.capture_stopped();
    case 'link_down': {
      // the status reason of the link, worded as /com words it
      const why = linkReason(reason, args);
      return why ? labelled(e.link_down(), why) : e.link_down();
    }
    case 'no_answer':
      return e.no_answer({ ms: String(args.ms) });
    case 'client_refused':
      return e.client_refused({ why: args.why === 'range' ? t.why.range() : t.why.full() });
    case 'request_refused':
      return e.request_refused({ code: String(args.code) });
    default:
      return r.event ? word(e, r.event) : '';
  }
}

/** The meaning of a record, frame or event. */
export const recordText = (t: Texts, r: MonitorRecord): string => (r.kind === 'event' ? eventText(t, r) : r.decoded ? frameText(t, r.decoded) : '');
