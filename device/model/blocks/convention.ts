// The one convention of every service control block (design/services.md, spec §9 register
// offsets): the unit reads a service's block in the PLC every plc_poll seconds through the service
// control interface (pew.interface_plc). Every block has
//   - a request word the PLC sets and the unit clears when it takes the request,
//   - a state word (STATE below),
//   - an error code word from the one classification (SERVICE_ERROR below),
//   - a counter of finished jobs that wraps at 65536 (a new result shows even when state and code repeat),
// and points into PLC memory for strings and payloads: a DT address and a length in bytes, two
// bytes a word, the first in the low byte (mewtocol.md §2.2, the logger's STRING order).
// Each block's layout is one table (ftp.ts, mqtt.ts, httpc.ts, email.ts); the engines' reads and
// writes, the library zip, docs/services.md and the tests all come from those tables.
import type { TestFailure } from '../servicetest.ts';

/** DT n+state: what the service did with the last request. */
export const STATE = { idle: 0, running: 1, done: 2, error: 3, waiting: 4 } as const;
export type BlockState = keyof typeof STATE;
export const STATE_TEXT: Record<BlockState, string> = {
  idle: 'no request taken yet',
  running: 'a request is being carried out',
  done: 'the last request succeeded',
  error: 'the last request failed (see the error code)',
  waiting: 'requests wait in the queue for the peer (broker, server) to come back',
};

/**
 * The error codes of every block: the classification of remote failures shared with the
 * connection tests (device/model/servicetest.ts), the local ones, and the faults of a request
 * itself (a pointer, string or payload the unit refuses before sending anything).
 */
export const SERVICE_ERROR = {
  none: 0,
  unknown_host: 1, // the server's (or proxy's) name does not resolve
  refused: 2, // nothing listens, or the connection broke
  timeout: 3, // no answer in time
  tls: 4, // TLS handshake failed: certificate not trusted, version refused
  auth_failed: 5, // user or password refused
  server_refused: 6, // the peer refused the request (a directory, a file, a topic, an HTTP status ≥ 400, a recipient)
  local: 7, // a local file cannot be read or written
  other: 8, // an answer not understood, any other failure
  plc_area: 9, // a pointer outside the PLC's memory (the PLC refused the read or write, or beyond DT 99999)
  bad_string: 10, // a string without its terminator (NUL) within its bound, or longer than its bound
  too_large: 11, // a payload or body longer than its bound
  bad_request: 12, // a request word, QoS, method or option the service does not know
  queue_full: 13, // the queue was full: the oldest waiting job was dropped for this one
  not_connected: 14, // the service is not connected (waits for the peer; the job is queued)
  table_mismatch: 15, // the table (collection, measurement) exists with other columns or field types than the row
  bad_value: 16, // a data point's value or type the database cannot hold (NaN or infinity, an unsigned 64-bit value in InfluxDB)
} as const;
export type ServiceErrorName = keyof typeof SERVICE_ERROR;

export const SERVICE_ERROR_TEXT: Record<ServiceErrorName, string> = {
  none: 'no error',
  unknown_host: 'the server name does not resolve',
  refused: 'nothing listens at the address, or the connection broke',
  timeout: 'no answer in time',
  tls: 'the TLS handshake failed (certificate not trusted, version refused)',
  auth_failed: 'user or password refused',
  server_refused: 'the server refused the request',
  local: 'a file on the unit cannot be read or written',
  other: 'any other failure',
  plc_area: 'a pointer outside the PLC memory',
  bad_string: 'a string without terminator within its bound, or longer than its bound',
  too_large: 'a payload or body longer than its bound',
  bad_request: 'a request value the service does not know',
  queue_full: 'the queue was full: its oldest job was dropped',
  not_connected: 'not connected to the peer: the job waits in the queue',
  table_mismatch: 'the table exists with other columns (or field types) than the row: nothing written',
  bad_value: 'a value or type the database cannot hold: the row is not written',
};

export type Direction = 'plc' | 'unit';
export type WordRole = 'request' | 'state' | 'error' | 'counter';

export interface BlockWord {
  offset: number;
  name: string;
  /** who writes it: the PLC program, or the unit */
  dir: Direction;
  role?: WordRole;
  meaning: string;
  unit?: string;
  /** named values of the word */
  values?: Readonly<Record<string, number>>;
}

export interface ControlBlock {
  /** the service's name in the status answer and on `npm run plc -- request` */
  service: string;
  /** the configuration section holding plc_control_dt */
  section: string;
  /** spec §9 length of the block in words */
  length: number;
  /** the default start (spec §9) */
  defaultDt: number;
  words: readonly BlockWord[];
  /** the values of the request word, by name */
  requests: Readonly<Record<string, number>>;
}

/** The offset of a named word; throws when the table has no such word (a programming error). */
export function offsetOf(block: ControlBlock, name: string): number {
  const w = block.words.find((x) => x.name === name);
  if (!w) throw new Error(`${block.service} block has no word ${name}`);
  return w.offset;
}

/** The offset of the word with a role of the convention. */
export function roleOffset(block: ControlBlock, role: WordRole): number {
  const w = block.words.find((x) => x.role === role);
  if (!w) throw new Error(`${block.service} block has no ${role} word`);
  return w.offset;
}

/** The words of a block read as one array, by name. */
export function wordsByName(block: ControlBlock, words: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of block.words) out[w.name] = words[w.offset] ?? 0;
  return out;
}

/** Problems of a table: overlapping or out-of-block words, a missing role. Empty when sound. */
export function checkBlock(block: ControlBlock): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  for (const w of block.words) {
    if (!Number.isInteger(w.offset) || w.offset < 0 || w.offset >= block.length) out.push(`${w.name}: offset ${w.offset} outside 0-${block.length - 1}`);
    if (seen.has(w.offset)) out.push(`${w.name}: offset ${w.offset} used twice`);
    seen.add(w.offset);
  }
  for (const role of ['request', 'state', 'error', 'counter'] as const) {
    if (block.words.filter((w) => w.role === role).length !== 1) out.push(`one ${role} word expected`);
  }
  const names = block.words.map((w) => w.name);
  if (new Set(names).size !== names.length) out.push('a word name used twice');
  return out;
}

/** The error name of a remote failure as the connection tests classify it (servicetest.ts). */
export function errorOfFailure(reason: TestFailure): ServiceErrorName {
  switch (reason) {
    case 'unknown_host':
      return 'unknown_host';
    case 'refused':
      return 'refused';
    case 'timeout':
      return 'timeout';
    case 'tls_untrusted':
    case 'tls_version':
      return 'tls';
    case 'auth_failed':
      return 'auth_failed';
    case 'not_found':
    case 'peer_error':
      return 'server_refused';
    case 'table_mismatch':
      return 'table_mismatch';
    default:
      return 'other';
  }
}
