// The small program a virtual PLC can run (the `program` of a connector in the --plcs file,
// docs/simulator.md): values that change with time in DT words, and service requests on a
// schedule through the control blocks, so that `npm start` shows live graphs and real publishes
// without a PLC program.
//   values:   [{ "address": "DT100", "kind": "counter" | "ramp" | "sine" | "random_walk",
//                "min": 0, "max": 1000, "period_s": 60, "every_ms": 1000 }]
//   requests: [{ "every_s": 10, "request": ["mqtt", "publish", "topic=plant/level", "payload=${DT100}"] }]
//   iec104:   { "events": [{ "type": "scaled", "ioa": 100, "value": "DT100", "every_ms": 1000 }], "refuse": [{ "ioa": 300 }] }
//             (iec104-program.ts: events into the IEC 104 monitor ring, commands answered)
// A request is a `npm run plc -- request` line after its connector; `${DTn}` in it is the word's
// value at that moment. A request whose block still holds an untaken request waits for the next turn.
import * as v from 'valibot';
import { requestWrites } from '../plc-request.ts';
import { iecProgramSchema, runIecProgram } from './iec104-program.ts';
import type { PlcMemory } from './memory.ts';

export const VALUE_KINDS = ['counter', 'ramp', 'sine', 'random_walk'] as const;
const DT_RE = /^DT(\d{1,5})$/;

export const programSchema = v.strictObject({
  values: v.optional(
    v.array(
      v.strictObject({
        address: v.pipe(v.string(), v.regex(DT_RE, 'expected a DT address, e.g. DT100')),
        kind: v.picklist(VALUE_KINDS, `expected one of ${VALUE_KINDS.join(', ')}`),
        min: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)), 0),
        max: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)), 1000),
        period_s: v.optional(v.pipe(v.number(), v.minValue(1, 'expected ≥ 1 s')), 60),
        every_ms: v.optional(v.pipe(v.number(), v.minValue(100, 'expected ≥ 100 ms')), 1000),
      }),
    ),
    [],
  ),
  requests: v.optional(
    v.array(
      v.strictObject({
        every_s: v.pipe(v.number('expected seconds'), v.minValue(1, 'expected ≥ 1 s')),
        request: v.pipe(
          v.array(v.string()),
          v.check((a) => {
            try {
              requestWrites(a.map((x) => x.replace(/\$\{DT\d+\}/g, '0')));
              return true;
            } catch {
              return false;
            }
          }, 'expected a request line, e.g. ["mqtt", "publish", "topic=a/b", "payload=1"]'),
        ),
      }),
    ),
    [],
  ),
  iec104: v.optional(iecProgramSchema),
});
export type PlcProgram = v.InferOutput<typeof programSchema>;
export type ValueDef = PlcProgram['values'][number];

/** The value of a changing word at `t` ms (`prev` its last value, `random` in [0, 1)). */
export function valueAt(def: ValueDef, t: number, prev: number, random: () => number): number {
  const span = Math.max(0, def.max - def.min);
  const phase = (t / 1000 / def.period_s) % 1;
  switch (def.kind) {
    case 'counter':
      return prev >= def.max || prev < def.min ? def.min : prev + 1;
    case 'ramp':
      return def.min + Math.round(span * phase);
    case 'sine':
      return def.min + Math.round(span * (0.5 + 0.5 * Math.sin(2 * Math.PI * phase)));
    case 'random_walk': {
      const step = Math.max(1, Math.round(span / 50));
      const next = prev + (random() < 0.5 ? -step : step);
      return Math.min(def.max, Math.max(def.min, next < def.min || prev < def.min ? def.min + Math.round(span / 2) : next));
    }
  }
}

export interface RunningProgram {
  stop(): void;
}

/** Runs `program` on `memory` until stopped. */
export function runProgram(memory: PlcMemory, program: PlcProgram, now: () => number = () => performance.now(), random = Math.random): RunningProgram {
  const timers: ReturnType<typeof setInterval>[] = [];
  for (const def of program.values) {
    const addr = Number(DT_RE.exec(def.address)![1]);
    const tick = () => {
      try {
        const prev = memory.readWords('DT', addr, 1)[0]!;
        memory.writeWords('DT', addr, [valueAt(def, now(), prev, random)]);
      } catch {
        // an address beyond this CPU's DT area: nothing to change
      }
    };
    tick();
    timers.push(setInterval(tick, def.every_ms));
  }
  for (const r of program.requests) {
    timers.push(
      setInterval(() => {
        try {
          const line = r.request.map((a) => a.replace(/\$\{DT(\d+)\}/g, (_, n: string) => String(memory.readWords('DT', Number(n), 1)[0])));
          const writes = requestWrites(line);
          const req = writes.at(-1)!;
          if (memory.readWords('DT', Number(req.address.slice(2)), 1)[0] !== 0) return; // the last one is not taken yet
          for (const w of writes) memory.writeWords('DT', Number(w.address.slice(2)), w.values);
        } catch {
          // a block or text beyond this CPU's DT area: the request cannot be placed
        }
      }, r.every_s * 1000),
    );
  }
  for (const t of timers) t.unref?.();
  const stopIec = program.iec104 ? runIecProgram(memory, program.iec104) : undefined;
  return {
    stop: () => {
      for (const t of timers) clearInterval(t);
      stopIec?.();
    },
  };
}
