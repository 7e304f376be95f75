// Split planning for MEWTOCOL-COM block reads and writes: a long range (e.g. 500 DT words) becomes
// the fewest requests whose command frame AND expected reply frame each fit one frame of the
// header's limit (mewtocol.md §1.3: `%` 118 chars, `<` 2048), so no exchange needs the
// multi-frame procedure. Every frame is header(1) + station(2) + marker(1) + text + BCC(2) + CR(1).
//
//   `%`: RD/RCC/RS/RK read 27 words per request ((118-9)/4: `%01$RD` + 4/word + BCC + CR; the
//        27-word figure of §1.3), WD/WCC write 24, WS/WK 25; `<`: reads 509, WD 507.
//
// Areas: DT/LD/FL go through RD/WD (5-digit addresses, 0–99999), WX/WY/WR/WL through RCC/WCC
// (4 digits), SV/EV (timer/counter set and elapsed values) through RS/WS and RK/WK (4 digits).
import { type ContactWordArea, type DataArea, MEW_ADDRESS_MAX, type MewRequest, type WritableContactWordArea } from './mewtocol-commands.ts';
import { MEW_FRAME_LIMIT, type MewHeader } from './mewtocol-frame.ts';
import { check, isInt } from './result.ts';

export type MewBlockArea = DataArea | ContactWordArea | 'SV' | 'EV';
export type MewWritableBlockArea = DataArea | WritableContactWordArea | 'SV' | 'EV';

const FRAME_OVERHEAD = 7; // header, station, marker, BCC, CR
const REPLY_CODE = 2; // `RD`, `RC`, `RS`, `RK`

function kind(area: MewBlockArea): { prefix: number; max: number } {
  if (area === 'DT' || area === 'LD' || area === 'FL') return { prefix: 13, max: MEW_ADDRESS_MAX.data }; // `RD` + code + 5 + 5
  if (area === 'SV' || area === 'EV') return { prefix: 10, max: MEW_ADDRESS_MAX.timerValue }; // `RS` + 4 + 4
  return { prefix: 12, max: MEW_ADDRESS_MAX.contactWord }; // `RCC` + area + 4 + 4
}

export interface PlanOptions {
  header?: MewHeader;
  /** Frame limit in chars (default MEW_FRAME_LIMIT of the header). */
  limit?: number;
  /** A further cap on words per request (some units take less). */
  maxWords?: number;
}

/** Most words one read (`op` 'read') or write request of this area can carry. */
export function mewMaxWords(op: 'read' | 'write', area: MewBlockArea, opts: PlanOptions = {}): number {
  const limit = opts.limit ?? MEW_FRAME_LIMIT[opts.header ?? '%'];
  const k = kind(area);
  const n =
    op === 'read'
      ? FRAME_OVERHEAD + k.prefix <= limit
        ? Math.floor((limit - FRAME_OVERHEAD - REPLY_CODE) / 4)
        : 0
      : Math.floor((limit - FRAME_OVERHEAD - k.prefix) / 4);
  return Math.max(0, Math.min(n, opts.maxWords ?? Infinity));
}

function read(area: MewBlockArea, start: number, count: number): MewRequest {
  if (area === 'DT' || area === 'LD' || area === 'FL') return { cmd: 'RD', area, start, count };
  if (area === 'SV') return { cmd: 'RS', start, count };
  if (area === 'EV') return { cmd: 'RK', start, count };
  return { cmd: 'RCC', area, start, count };
}

function write(area: MewWritableBlockArea, start: number, words: number[]): MewRequest {
  if (area === 'DT' || area === 'LD' || area === 'FL') return { cmd: 'WD', area, start, words };
  if (area === 'SV') return { cmd: 'WS', start, words };
  if (area === 'EV') return { cmd: 'WK', start, words };
  return { cmd: 'WCC', area, start, words };
}

function checkRange(area: MewBlockArea, start: number, count: number, per: number): void {
  const { max } = kind(area);
  check(per >= 1, 'frame limit too small for one word');
  check(isInt(count, 1, max + 1) && isInt(start, 0, max - count + 1), `${area} ${start}+${count} not inside 0-${max}`);
}

/** The fewest read requests covering `count` words from `start`, in address order. */
export function planMewRead(area: MewBlockArea, start: number, count: number, opts: PlanOptions = {}): MewRequest[] {
  const per = mewMaxWords('read', area, opts);
  checkRange(area, start, count, per);
  const out: MewRequest[] = [];
  for (let at = start; at < start + count; at += per) out.push(read(area, at, Math.min(per, start + count - at)));
  return out;
}

/** The fewest write requests writing `words` from `start`, in address order. */
export function planMewWrite(area: MewWritableBlockArea, start: number, words: readonly number[], opts: PlanOptions = {}): MewRequest[] {
  const per = mewMaxWords('write', area, opts);
  checkRange(area, start, words.length, per);
  const out: MewRequest[] = [];
  for (let i = 0; i < words.length; i += per) out.push(write(area, start + i, words.slice(i, i + per)));
  return out;
}
