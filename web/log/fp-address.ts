// FP addresses as FPWIN Pro writes them in a global variable list (DT100, DDT200, FL2, LD7, X1F,
// Y3, R10A, WR5 …) and the log record's area + reg_addr (spec §3 log areas DT1, FL2, LD3, X4, Y5,
// R6; bit addresses of spec §5 with the last hex digit as the bit, mewtocol.md §2.1).
//
// Decisions where the spec is silent:
// - A leading D (DDT200, DFL4, DLD8) is FPWIN's double-word form of the same area: the address is
//   the first word; the width comes from the data type.
// - The logger reads X, Y and R points as single bits (0/1), so a relay word (WX, WY, WR) cannot
//   be a log point: such a row is refused as `relay_word` rather than silently logging bit 0.
// - Areas the logger has no log area for (WL, L, T, C, SV, EV, system areas) are `area_not_logged`.

import { LOG_AREAS, type LogArea, typeWords } from '../../device/model/sections/logfile.ts';
import { formatBitOffset, parseBitOffset } from '../../device/protocol/areas.ts';

export type AddressProblem = 'bad_address' | 'relay_word' | 'area_not_logged';
export type ParsedAddress = { ok: true; area: LogArea; reg_addr: string; bit: boolean } | { ok: false; reason: AddressProblem };

const WORD_AREA: Record<string, LogArea> = { DT: 1, FL: 2, LD: 3 };
const BIT_AREA: Record<string, LogArea> = { X: 4, Y: 5, R: 6 };
const WORD_RE = /^D?(DT|FL|LD)(\d{1,7})$/;
const BIT_RE = /^([XYR])([0-9A-F]{1,4})$/;
const RELAY_WORD_RE = /^D?W[XYR]\d+$/;
const OTHER_AREA_RE = /^(D?(WL|SV|EV|SD|IX|IY)\d+|(L|T|C|E|SR)[0-9A-F]+)$/;

/** Reads an FP address; case and surrounding blanks do not matter. */
export function parseFpAddress(text: string): ParsedAddress {
  const s = text.trim().toUpperCase();
  const word = WORD_RE.exec(s);
  if (word) return { ok: true, area: WORD_AREA[word[1]!]!, reg_addr: String(Number(word[2])), bit: false };
  const bit = BIT_RE.exec(s);
  if (bit) {
    // FPWIN writes word 0's bits A–F without the word (XF); spec §5 wants the digit first (0F)
    const off = parseBitOffset(bit[2]!.length === 1 ? `0${bit[2]!}` : bit[2]!);
    if (!off.ok) return { ok: false, reason: 'bad_address' };
    return { ok: true, area: BIT_AREA[bit[1]!]!, reg_addr: formatBitOffset(off.value.word, off.value.bit), bit: true };
  }
  if (RELAY_WORD_RE.test(s)) return { ok: false, reason: 'relay_word' };
  if (OTHER_AREA_RE.test(s)) return { ok: false, reason: 'area_not_logged' };
  return { ok: false, reason: 'bad_address' };
}

/** The FP address of a record as FPWIN writes it: DDT for 32-bit values, the bit address in X, Y, R. */
export function formatFpAddress(r: { area: number; reg_addr: string; type: number }): string {
  const area = LOG_AREAS[r.area as LogArea];
  if (r.area >= 4) return area + r.reg_addr.toUpperCase();
  return (typeWords(r.type) === 2 ? 'D' : '') + area + r.reg_addr;
}
