// The IEC 104 part of a virtual PLC's program (the `iec104` key of `program` in the --plcs file,
// docs/simulator.md): what a PLC program does for the unit's IEC 60870-5-104 station, through the
// buffers of one connection entry (device/model/blocks/iec104.ts, docs/iec104.md "The PLC side"):
//   - events on a schedule: writes a record into slot W of the monitor ring when the ring has room
//     ((W + 1) mod capacity ≠ R, R the unit's read index), then advances W; on a full ring the event
//     is dropped and counted (in `overflow_word` when given);
//   - commands: a request number in the command buffer different from the answer number is a new
//     command: refused with the configured reason when its IOA is listed in `refuse`, otherwise
//     accepted, and finished (the done word) `done_ms` later.
// The buffer addresses default to the unit's defaults for a connection entry.
import * as v from 'valibot';
import type { EventType, PlcRefusal } from '../../device/iec104/points.ts';
import {
  COMMAND_WORDS,
  decodeCommandWords,
  encodeRecord,
  RECORD_TYPES,
  RESULT_OF_REFUSAL,
  type RecordTypeName,
  ringCapacity,
  ringHasRoom,
  slotOffset,
} from '../../device/model/blocks/iec104.ts';
import { connectionSchema, IEC_AREAS, type IecConnection, MONITOR_DEPTH_MAX, MONITOR_DEPTH_MIN } from '../../device/model/sections/iec.ts';
import type { ElementValue } from '../../device/protocol/iec104/elements.ts';
import type { PlcMemory } from './memory.ts';

const D = v.getDefaults(connectionSchema) as IecConnection;
const TYPE_NAMES = Object.keys(RECORD_TYPES) as RecordTypeName[];
const REFUSALS = ['unknown_ioa', 'not_now', 'out_of_range', 'other'] as const satisfies readonly PlcRefusal[];
const DT_RE = /^DT(\d{1,5})$/;
/** how often the program looks at the command buffer, ms */
export const COMMAND_SCAN_MS = 20;

const word = (d: number) => v.optional(v.pipe(v.number(), v.integer('expected a whole number'), v.minValue(0), v.maxValue(99999)), d);

export const iecProgramSchema = v.strictObject({
  area: v.optional(v.picklist(IEC_AREAS, `expected one of ${IEC_AREAS.join(', ')}`), D.area),
  read_index: word(D.plc_buffer_rbm),
  ring: word(D.plc_buffer_m),
  depth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(MONITOR_DEPTH_MIN), v.maxValue(MONITOR_DEPTH_MAX)), D.plc_buffer_m_depth),
  commands: word(D.plc_buffer_c),
  events: v.optional(
    v.array(
      v.strictObject({
        type: v.picklist(TYPE_NAMES, `expected one of ${TYPE_NAMES.join(', ')}`),
        ioa: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(0xffffff, 'expected an IOA 1-16777215')),
        group: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(16)), 0),
        // counter: 1, 2, 3 … (a single point alternates, a double point goes off/on); toggle: 0, 1, 0 …
        // (off/on for a double point); DTn: the word's value at that moment
        value: v.optional(
          v.union([v.picklist(['counter', 'toggle'] as const), v.pipe(v.string(), v.regex(DT_RE, 'expected counter, toggle or a DT address'))]),
          'counter',
        ),
        every_ms: v.optional(v.pipe(v.number(), v.minValue(100, 'expected ≥ 100 ms')), 1000),
      }),
    ),
    [],
  ),
  refuse: v.optional(
    v.array(
      v.strictObject({ ioa: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(0xffffff)), reason: v.optional(v.picklist(REFUSALS), 'unknown_ioa') }),
    ),
    [],
  ),
  done_ms: v.optional(v.pipe(v.number(), v.minValue(0)), 500),
  overflow_word: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(99999))),
});
export type IecProgram = v.InferOutput<typeof iecProgramSchema>;
export type IecLayout = Pick<IecProgram, 'area' | 'read_index' | 'ring' | 'depth'>;

/** The element of an event of `type` for the raw number `raw` (a counter, a toggle or a word's value). */
export function eventElement(type: RecordTypeName, raw: number, source: 'counter' | 'toggle' | 'word'): ElementValue {
  const int16 = (n: number) => (n << 16) >> 16;
  switch (type) {
    case 'single':
      return { kind: 'siq', value: source === 'word' ? raw !== 0 : raw % 2 === 1, quality: 0 };
    case 'double':
      return { kind: 'diq', value: source === 'word' ? raw & 3 : raw % 2 === 1 ? 2 : 1, quality: 0 };
    case 'step':
      return { kind: 'vti_qds', value: ((((raw + 64) % 128) + 128) % 128) - 64, transient: false, quality: 0 };
    case 'bitstring':
      return { kind: 'bsi_qds', value: raw >>> 0, quality: 0 };
    case 'normalized':
      return { kind: 'nva_qds', value: int16(raw), quality: 0 };
    case 'scaled':
      return { kind: 'sva_qds', value: int16(raw), quality: 0 };
    case 'float':
      return { kind: 'r32_qds', value: raw, quality: 0 };
    case 'totals':
      return { kind: 'bcr', value: raw | 0, sequence: raw & 31, carry: false, adjusted: false, invalid: false };
  }
}

export interface RingWrite {
  /** word writes in order: the record, then the new write index */
  writes: { start: number; words: number[] }[];
  /** false: the ring is full (or an index out of range): nothing to write */
  room: boolean;
}

/** What a PLC writes to put `record` into the ring whose indices are `read` and `write` now. */
export function ringWrite(layout: IecLayout, read: number, write: number, record: readonly number[]): RingWrite {
  const cap = ringCapacity(layout.depth);
  if (cap === 0 || read >= cap || write >= cap || !ringHasRoom(read, write, cap)) return { writes: [], room: false };
  return {
    room: true,
    writes: [
      { start: layout.ring + slotOffset(write), words: [...record] },
      { start: layout.ring, words: [(write + 1) % cap] },
    ],
  };
}

/** Puts one record into the ring of `memory`; false when the ring is full. */
export function pushRecord(memory: PlcMemory, layout: IecLayout, record: readonly number[]): boolean {
  const [read = 0] = memory.readWords(layout.area, layout.read_index, 1);
  const [write = 0] = memory.readWords(layout.area, layout.ring, 1);
  const w = ringWrite(layout, read, write, record);
  for (const x of w.writes) memory.writeWords(layout.area, x.start, x.words);
  return w.room;
}

/** Runs the IEC 104 part of a program on `memory`; answers the function that stops it. */
export function runIecProgram(memory: PlcMemory, p: IecProgram): () => void {
  const timers: ReturnType<typeof setInterval>[] = [];
  const pending = new Set<ReturnType<typeof setTimeout>>();
  for (const ev of p.events) {
    let n = 0;
    const type = RECORD_TYPES[ev.type] as EventType;
    timers.push(
      setInterval(() => {
        try {
          n++;
          const dt = DT_RE.exec(ev.value);
          const raw = dt ? memory.readWords('DT', Number(dt[1]), 1)[0]! : ev.value === 'toggle' ? n % 2 : n;
          const source = dt ? 'word' : ev.value === 'toggle' ? 'toggle' : 'counter';
          const record = encodeRecord({ type, ioa: ev.ioa, group: ev.group, element: eventElement(ev.type, raw, source) });
          if (!pushRecord(memory, p, record) && p.overflow_word !== undefined) {
            const [c = 0] = memory.readWords(p.area, p.overflow_word, 1);
            memory.writeWords(p.area, p.overflow_word, [(c + 1) & 0xffff]);
          }
        } catch {
          // a buffer beyond this CPU's area: no event can be placed
        }
      }, ev.every_ms),
    );
  }
  timers.push(
    setInterval(() => {
      try {
        answerCommand(memory, p, (request) => {
          const t = setTimeout(() => {
            pending.delete(t);
            try {
              if (memory.readWords(p.area, p.commands, 1)[0] === request) memory.writeWords(p.area, p.commands + 3, [request]);
            } catch {
              // the buffer is beyond this CPU's area
            }
          }, p.done_ms);
          pending.add(t);
        });
      } catch {
        // the buffer is beyond this CPU's area
      }
    }, COMMAND_SCAN_MS),
  );
  for (const t of timers) t.unref?.();
  return () => {
    for (const t of timers) clearInterval(t);
    for (const t of pending) clearTimeout(t);
  };
}

/**
 * One look at the command buffer: a new command (request ≠ 0 and ≠ answer) is decided: the result
 * word first, then the answer number. `accepted` is called with the request number of an accepted one.
 */
export function answerCommand(memory: PlcMemory, p: Pick<IecProgram, 'area' | 'commands' | 'refuse'>, accepted: (request: number) => void): void {
  const words = memory.readWords(p.area, p.commands, COMMAND_WORDS);
  const [request = 0, answer = 0] = words;
  if (request === 0 || request === answer) return;
  const cmd = decodeCommandWords(words);
  const refusal = cmd ? p.refuse.find((r) => r.ioa === cmd.ioa)?.reason : 'other';
  memory.writeWords(p.area, p.commands + 2, [refusal ? RESULT_OF_REFUSAL[refusal] : 0]);
  memory.writeWords(p.area, p.commands + 1, [request]);
  if (!refusal) accepted(request);
}
