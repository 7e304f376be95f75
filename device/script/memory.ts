// Where the script's read and write statements go: the PLC areas through the service control
// interface's link (its queue: one request on the wire at a time, fair between users), and the
// unit's INTERN memory (holding registers 0–32767, mewtocol.md §9) directly, so a script can
// prepare data for Modbus clients. Values are coded as the data logger codes them
// (device/logger/values-words.ts, the FP PLCs' own order: 32-bit low word first).

import { ControlInterfaceOff } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import { decodeValue, encodeValue } from '../logger/values.ts';
import { INTERN, type Operand, type ScriptType, TYPE_WORDS } from '../model/script/language.ts';
import type { LogType } from '../model/sections/logfile.ts';

export const SCRIPT_USER = 'script';

/** the data logger's type code of each script type (spec §3 log data types) */
const LOG_TYPE: Record<Exclude<ScriptType, 'BOOL'>, LogType> = { INT: 0, UINT: 1, DINT: 4, UDINT: 5, REAL: 7 };

/** The value the words hold: BOOL is 1 for any word but 0. */
export function decodeScriptValue(type: ScriptType, words: readonly number[]): number {
  if (type === 'BOOL') return (words[0] ?? 0) !== 0 ? 1 : 0;
  const v = decodeValue(LOG_TYPE[type], words, 'little');
  if (typeof v !== 'number') throw new Error(`${words.length} words do not hold a ${type}`);
  return v;
}

/** The words of a value; throws a RangeError with the type's range when it does not fit. */
export function encodeScriptValue(type: ScriptType, value: number): number[] {
  if (type === 'BOOL') return [value !== 0 ? 1 : 0];
  const integer = type !== 'REAL';
  if (integer && !Number.isInteger(value)) throw new RangeError(`${value} is no whole number for ${type}`);
  try {
    return encodeValue(LOG_TYPE[type], value, 'little');
  } catch {
    throw new RangeError(`${value} does not fit ${type}`);
  }
}

export class ScriptMemory {
  constructor(
    private readonly links: Links,
    private readonly controlInterface: number,
  ) {}

  private link() {
    const link = this.links.get(this.controlInterface);
    if (!link) throw new ControlInterfaceOff();
    return link;
  }

  async read(o: Operand): Promise<number> {
    const n = TYPE_WORDS[o.type];
    if (o.area === INTERN) return decodeScriptValue(o.type, Array.from(this.links.internal.words.subarray(o.address, o.address + n)));
    return decodeScriptValue(o.type, await this.link().readWords(o.area, o.address, n, SCRIPT_USER));
  }

  async write(o: Operand, value: number): Promise<void> {
    const words = encodeScriptValue(o.type, value);
    if (o.area === INTERN) {
      this.links.internal.words.set(words, o.address);
      return;
    }
    await this.link().writeWords(o.area, o.address, words, SCRIPT_USER);
  }

  /** The relay R<word><bit> (an [on FLAG] section's flag) through its word WR<word>. */
  async relay(word: number, bit: number): Promise<boolean> {
    const [w] = await this.link().readWords('WR', word, 1, SCRIPT_USER);
    return (((w ?? 0) >> bit) & 1) === 1;
  }
}
