// New data points for the add button of the /log page (spec §9 "add at once 50"): each a copy of
// the log file's last point with the next address and the next free name, so that adding ten
// points after DT100 (DINT) gives DT102, DT104, … Decisions where the spec is silent:
// - Address: the word after the last point's words (typeWords), or the next bit in X, Y, R;
//   past the end of the area the schema reports the address at the field.
// - Name: the last name's trailing number counted on (Tank7 → Tank8, Tank9); a name without one
//   gets 1, 2, … appended; names already used in the log file are skipped (case ignored).
// - A log file without points starts at DT0 as an INT through the log file's own interface.
import { withDefaults } from '../../device/model/section.ts';
import { type LogFile, type LogRecord, recordSchema, typeWords } from '../../device/model/sections/logfile.ts';
import { bitIndex, formatBitOffset, fromBitIndex, parseBitOffset } from '../../device/protocol/areas.ts';

const NAME_MAX = 70; // spec §9: column name 70
const BIT_AREA_MIN = 4; // X4, Y5, R6 (spec §3)

/** The address after `r`'s value, or undefined when `r`'s address is not a valid one. */
export function nextAddress(r: Pick<LogRecord, 'area' | 'reg_addr' | 'type'> & Partial<Pick<LogRecord, 'str_len'>>, steps = 1): string | undefined {
  if (r.area >= BIT_AREA_MIN) {
    const off = parseBitOffset(r.reg_addr.toUpperCase());
    if (!off.ok) return undefined;
    const next = fromBitIndex(bitIndex(off.value.word, off.value.bit) + steps);
    return formatBitOffset(next.word, next.bit);
  }
  return /^\d+$/.test(r.reg_addr) ? String(Number(r.reg_addr) + steps * typeWords(r.type, r.str_len)) : undefined;
}

function names(last: string | undefined, count: number, taken: ReadonlySet<string>): string[] {
  const m = /^(.*?)(\d*)$/.exec(last ?? 'Value')!;
  const base = m[1] || 'Value';
  let n = m[2] ? Number(m[2]) + 1 : 1;
  const out: string[] = [];
  while (out.length < count) {
    const digits = String(n++);
    const name = base.slice(0, NAME_MAX - digits.length) + digits;
    if (!taken.has(name.toLowerCase())) out.push(name);
  }
  return out;
}

/** `count` new points for the end of `file`, ids after its last one. */
export function newPoints(file: Pick<LogFile, 'interface' | 'records'>, count: number): LogRecord[] {
  const last = file.records.at(-1);
  const template = last ?? (withDefaults(recordSchema, { if: file.interface }) as LogRecord);
  const taken = new Set(file.records.map((r) => r.name.toLowerCase()));
  const fresh = names(last?.name, count, taken);
  return fresh.map((name, i) => ({
    ...template,
    id: file.records.length + i + 1,
    name,
    reg_addr: last ? (nextAddress(last, i + 1) ?? last.reg_addr) : (nextAddress(template, i) ?? template.reg_addr),
  }));
}
