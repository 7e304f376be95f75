// Why a PLC link, a listener or the data logger is not as it should be, as the daemon sends it for
// display: a code and its values, which the console words in its language (web/i18n/translate.ts
// reasonText; the texts are the `reasons` part of the `errors` dictionary). `words` carries the
// system's own words where the code alone cannot say it (an error the operating system named), shown
// as they came. The daemon's log lines keep their English words beside the code.
import type * as v from 'valibot';
import { codedText, codedTextSchema } from './coded-text.ts';

export const STATUS_REASONS = [
  // a listener: a redirect thread, a TLS bridge part, the IEC 60870-5-104 station
  'port_in_use',
  'port_rights',
  'listen_failed',
  // a PLC link (device/com/link.ts)
  'plc_no_answer',
  'port_closed',
  'interface_absent',
  'open_failed',
  'tcp_no_connection',
  'tcp_refused',
  'baud_searching',
  'baud_not_found',
  // a PLC request of a service (the IEC 104 station's PLC side)
  'plc_error',
  'plc_bad_reply',
  'plc_link_down',
  'control_interface_off',
  'ring_error',
  // the data logger's write status (device/logger)
  'volume_full',
  'volume_read_only',
  'usb_removed',
  'volume_unavailable',
  'write_error',
  'stopped_by_plc',
  'records_dropped',
  'low_memory_deleted',
  'low_memory_stopped',
  'low_memory_too_few',
  'format_file',
  // the TLS bridge
  'cert_missing',
  'cert_invalid',
  'cert_unusable',
] as const;
export type StatusReasonCode = (typeof STATUS_REASONS)[number];

export const statusReasonSchema = codedTextSchema(STATUS_REASONS);
export type StatusReason = v.InferOutput<typeof statusReasonSchema>;

export const reason = (code: StatusReasonCode, args?: Record<string, string | number>, words?: string): StatusReason => codedText(code, args, words);

/** Why a server cannot listen on its port (a redirect thread, a TLS part, the IEC 104 station). */
export function listenReason(e: NodeJS.ErrnoException, port: number): StatusReason {
  if (e.code === 'EADDRINUSE') return reason('port_in_use', { port });
  if (e.code === 'EACCES') return reason('port_rights', { port });
  return reason('listen_failed', { port }, e.message);
}

/** Whether two reasons say the same (a status that did not change is not logged again). */
export const sameReason = (a: StatusReason | undefined, b: StatusReason | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && reasonLog(a) === reasonLog(b));

/** The reason and its values on one line for the daemon's own log (English; the console words the code itself). */
export const reasonLog = (r: StatusReason): string =>
  [r.code, ...Object.entries(r.args ?? {}).map(([k, val]) => `${k}=${val}`), ...(r.words ? [r.words] : [])].join(' ');
