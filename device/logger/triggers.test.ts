import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pinTimeZone } from '../../test/support/time-zone.ts';
import {
  type CacheEvent,
  type CacheWrite,
  type ConditionState,
  cacheStep,
  conditionStart,
  conditionStep,
  emptyCache,
  type FlagLevels,
  flagStep,
  localMidnight,
  type RecordCache,
  slotAfter,
  slotAtOrBefore,
  slotsBetween,
  type TimedSettings,
  timedStart,
  timedStep,
  winterOffset,
} from './triggers.ts';

// wall-clock rules follow the process's zone: pin one with DST (CET/CEST, changes on the last
// Sundays of March and October)
// (set before the constants below are computed; put back after the file)
pinTimeZone('Europe/Berlin');

const H = 3_600_000;
const M = 60_000;
const S = 1000;
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();
const utc = (iso: string) => Date.parse(iso);
const fixed = (cycle: number): TimedSettings => ({ trigger: 1, cycle, time_start: 0, repeat_count: 0 });
const atTime = (time_start: number, cycle: number, repeat_count = 0): TimedSettings => ({ trigger: 2, cycle, time_start, repeat_count });
const wall = (t: number) => {
  const d = new Date(t);
  return `${d.getDate()} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
};

describe('time zone pinned', () => {
  it('Berlin: winter offset +1 h all year, 23 and 25 hour days in 2024', () => {
    expect(winterOffset(local(2024, 1, 10))).toBe(H);
    expect(winterOffset(local(2024, 7, 10))).toBe(H);
    expect(local(2024, 4, 1) - local(2024, 3, 31)).toBe(23 * H);
    expect(local(2024, 10, 28) - local(2024, 10, 27)).toBe(25 * H);
    expect(localMidnight(local(2024, 3, 31, 17, 3))).toBe(local(2024, 3, 31));
  });
});

describe('fixed cycle (1): a grid of real time aligned to local midnight', () => {
  it('900 s records at :00, :15, :30, :45 in winter and in summer', () => {
    expect(wall(slotAfter(fixed(900), local(2024, 1, 10, 10, 7)))).toBe('10 10:15:00');
    expect(wall(slotAtOrBefore(fixed(900), local(2024, 1, 10, 10, 7)))).toBe('10 10:00:00');
    expect(wall(slotAfter(fixed(900), local(2024, 7, 10, 10, 7)))).toBe('10 10:15:00');
    expect(wall(slotAfter(fixed(900), local(2024, 7, 10, 23, 59, 59)))).toBe('11 00:00:00');
    // on a slot: that slot is the latest at or before, the next is strictly after
    expect(slotAtOrBefore(fixed(900), local(2024, 1, 10, 10, 15))).toBe(local(2024, 1, 10, 10, 15));
    expect(slotAfter(fixed(900), local(2024, 1, 10, 10, 15))).toBe(local(2024, 1, 10, 10, 30));
  });

  it('across the DST changes a 900 s cycle stays 900 s of real time', () => {
    const spring = slotAfter(fixed(900), local(2024, 3, 31, 1, 50));
    expect(wall(spring)).toBe('31 03:00:00'); // 01:45 CET + 900 s = 03:00 CEST
    expect(spring - slotAtOrBefore(fixed(900), local(2024, 3, 31, 1, 50))).toBe(900 * S);
    const autumn = slotAfter(fixed(900), utc('2024-10-27T00:50:00Z')); // 02:50 CEST
    expect(autumn).toBe(utc('2024-10-27T01:00:00Z'));
    expect(wall(autumn)).toBe('27 02:00:00'); // the repeated hour, CET
    expect(slotsBetween(fixed(900), local(2024, 10, 27), local(2024, 10, 28))).toBe(25 * 4 - 1);
    expect(slotsBetween(fixed(900), local(2024, 3, 31), local(2024, 4, 1))).toBe(23 * 4 - 1);
  });

  it('a daily cycle keeps 24 h of real time: 00:00 in winter, 01:00 in summer', () => {
    expect(wall(slotAfter(fixed(86400), local(2024, 1, 10, 12)))).toBe('11 00:00:00');
    expect(wall(slotAfter(fixed(86400), local(2024, 7, 10, 12)))).toBe('11 01:00:00');
    expect(wall(slotAfter(fixed(7200), local(2024, 7, 10, 12, 30)))).toBe('10 13:00:00');
    expect(wall(slotAfter(fixed(7200), local(2024, 1, 10, 12, 30)))).toBe('10 14:00:00');
  });

  it('slots between two times, both excluded', () => {
    expect(slotsBetween(fixed(900), local(2024, 1, 10, 10), local(2024, 1, 10, 11))).toBe(3);
    expect(slotsBetween(fixed(900), local(2024, 1, 10, 10, 1), local(2024, 1, 10, 11, 1))).toBe(4);
    expect(slotsBetween(fixed(900), local(2024, 1, 10, 11), local(2024, 1, 10, 10))).toBe(0);
    expect(slotsBetween(fixed(1), 0, 10 * S)).toBe(9);
  });

  it('start: the first slot at or after now that was not recorded yet, slots missed while down', () => {
    const t = fixed(900);
    expect(timedStart(t, local(2024, 1, 10, 10, 7), 0)).toEqual({ due: local(2024, 1, 10, 10, 15), missed: 0 });
    expect(timedStart(t, local(2024, 1, 10, 10, 15), 0)).toEqual({ due: local(2024, 1, 10, 10, 15), missed: 0 });
    // restarted within the second the 10:15 record was written: not twice
    const rec = local(2024, 1, 10, 10, 15) / S;
    expect(timedStart(t, local(2024, 1, 10, 10, 15) + 400, rec)).toEqual({ due: local(2024, 1, 10, 10, 30), missed: 0 });
    // down from after the 08:00 record until 10:07: 08:15 … 10:00 missed
    expect(timedStart(t, local(2024, 1, 10, 10, 7), local(2024, 1, 10, 8) / S)).toEqual({ due: local(2024, 1, 10, 10, 15), missed: 8 });
    // last_trig in the future (the clock was set back): ignored
    expect(timedStart(t, local(2024, 1, 10, 10, 7), local(2025, 1, 1) / S)).toEqual({ due: local(2024, 1, 10, 10, 15), missed: 0 });
  });

  it('timer steps: on time, late, early, and a clock set back', () => {
    const t = fixed(900);
    const due = local(2024, 1, 10, 10, 15);
    expect(timedStep(t, due, due + 3)).toEqual({ record: true, slot: due, missed: 0, due: due + 900 * S });
    // 40 minutes late: the 10:45 slot is recorded, 10:15 and 10:30 counted
    expect(timedStep(t, due, due + 40 * M)).toEqual({ record: true, slot: due + 30 * M, missed: 2, due: due + 45 * M });
    expect(timedStep(t, due, due - 20)).toEqual({ record: false, missed: 0, due });
    // set back by 10 s after recording 10:00: wait for 10:15, 10:00 is not recorded again
    expect(timedStep(t, due, local(2024, 1, 10, 9, 59, 50))).toEqual({ record: false, missed: 0, due });
    // set back by an hour: the next slot after the new now
    expect(timedStep(t, due, local(2024, 1, 10, 9, 5))).toEqual({ record: false, missed: 0, due: local(2024, 1, 10, 9, 15) });
  });

  it('other zones: +5:45 keeps the wall-clock hour; in the southern hemisphere winter is July', () => {
    try {
      process.env.TZ = 'Asia/Kathmandu';
      expect(wall(slotAfter(fixed(3600), local(2024, 1, 10, 10, 7)))).toBe('10 11:00:00');
      expect(wall(slotAfter(fixed(86400), local(2024, 1, 10, 10, 7)))).toBe('11 00:00:00');
      process.env.TZ = 'Australia/Sydney';
      expect(winterOffset(local(2024, 1, 10))).toBe(10 * H);
      expect(wall(slotAfter(fixed(86400), local(2024, 7, 10, 12)))).toBe('11 00:00:00'); // AEST
      expect(wall(slotAfter(fixed(86400), local(2024, 1, 10, 12)))).toBe('11 01:00:00'); // AEDT
    } finally {
      process.env.TZ = 'Europe/Berlin';
    }
  });

  it('refuses triggers without time slots and broken cycles', () => {
    expect(() => slotAfter({ trigger: 3, cycle: 900, time_start: 0, repeat_count: 0 }, 0)).toThrow(RangeError);
    expect(() => slotAfter(fixed(0), 0)).toThrow(RangeError);
    expect(() => slotAfter(fixed(1.5), 0)).toThrow(RangeError);
  });
});

describe('specified time (2): from time_start every cycle until midnight', () => {
  it('08:00 hourly: 16 records a day, then the next morning', () => {
    const t = atTime(8 * 3600, 3600);
    expect(wall(slotAfter(t, local(2024, 1, 10, 6)))).toBe('10 08:00:00');
    expect(wall(slotAfter(t, local(2024, 1, 10, 8)))).toBe('10 09:00:00');
    expect(wall(slotAfter(t, local(2024, 1, 10, 22, 59)))).toBe('10 23:00:00');
    expect(wall(slotAfter(t, local(2024, 1, 10, 23)))).toBe('11 08:00:00');
    expect(wall(slotAtOrBefore(t, local(2024, 1, 11, 7, 59)))).toBe('10 23:00:00');
    expect(slotsBetween(t, local(2024, 1, 10), local(2024, 1, 11))).toBe(16);
  });

  it('repeat_count caps the records of a day', () => {
    const t = atTime(8 * 3600, 3600, 3);
    expect(wall(slotAfter(t, local(2024, 1, 10, 10)))).toBe('11 08:00:00');
    expect(wall(slotAtOrBefore(t, local(2024, 1, 10, 20)))).toBe('10 10:00:00');
    expect(slotsBetween(t, local(2024, 1, 10, 7), local(2024, 1, 12, 7))).toBe(6);
  });

  it('a cycle longer than the rest of the day: one record a day at time_start', () => {
    const t = atTime(12 * 3600 + 30 * 60, 86500);
    expect(wall(slotAfter(t, local(2024, 1, 10, 12, 30)))).toBe('11 12:30:00');
    expect(slotsBetween(t, local(2024, 1, 1), local(2024, 2, 1))).toBe(31);
  });

  it('DST: a time in the spring gap records at the first moment after it; the autumn repeat takes the first', () => {
    const gap = atTime(2 * 3600 + 30 * 60, 3600);
    expect(wall(slotAfter(gap, local(2024, 3, 31)))).toBe('31 03:30:00');
    expect(wall(slotAfter(gap, local(2024, 3, 31, 3, 30)))).toBe('31 04:30:00');
    const twice = atTime(2 * 3600 + 30 * 60, 1800);
    const first = slotAfter(twice, local(2024, 10, 27));
    expect(first).toBe(utc('2024-10-27T00:30:00Z')); // 02:30 CEST
    expect(slotAfter(twice, first)).toBe(utc('2024-10-27T01:00:00Z')); // 02:00 CET, 30 minutes later
    // whole days of a 3600 s cycle from midnight: 23 and 25 records
    expect(slotsBetween(atTime(0, 3600), local(2024, 3, 30, 23, 59), local(2024, 4, 1))).toBe(23);
    expect(slotsBetween(atTime(0, 3600), local(2024, 10, 26, 23, 59), local(2024, 10, 28))).toBe(25);
  });

  it('start and steps use the same slots', () => {
    const t = atTime(8 * 3600, 3600, 3);
    expect(timedStart(t, local(2024, 1, 10, 11), local(2024, 1, 9, 9) / S)).toEqual({ due: local(2024, 1, 11, 8), missed: 4 });
    expect(timedStep(t, local(2024, 1, 11, 8), local(2024, 1, 11, 9, 30))).toEqual({
      record: true,
      slot: local(2024, 1, 11, 9),
      missed: 1,
      due: local(2024, 1, 11, 10),
    });
  });
});

// ---- properties of the time-driven triggers ----

const MIN_T = local(2020, 1, 1);
const MAX_T = local(2030, 12, 31);
// half of the times near a DST change
const timeArb = fc.oneof(
  fc.integer({ min: MIN_T, max: MAX_T }),
  fc
    .constantFrom(local(2024, 3, 31), local(2024, 10, 27), local(2025, 3, 30), local(2025, 10, 26))
    .chain((d) => fc.integer({ min: d - 6 * H, max: d + 30 * H })),
);
const cycleArb = fc.oneof(fc.constantFrom(1, 7, 60, 300, 900, 1800, 3600, 7200, 86400, 86500), fc.integer({ min: 1, max: 86500 }));
const settingsArb: fc.Arbitrary<TimedSettings> = fc.oneof(
  cycleArb.map(fixed),
  fc.record({
    trigger: fc.constant(2),
    cycle: cycleArb,
    time_start: fc.integer({ min: 0, max: 86399 }),
    repeat_count: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
  }),
);

describe('time-driven triggers: properties', () => {
  it('property: slots are whole seconds, the latest at or before and the next strictly after bracket every time', () => {
    fc.assert(
      fc.property(settingsArb, timeArb, (t, at) => {
        const before = slotAtOrBefore(t, at);
        const after = slotAfter(t, at);
        expect(before).toBeLessThanOrEqual(at);
        expect(after).toBeGreaterThan(at);
        expect(before % S).toBe(0);
        expect(slotAtOrBefore(t, after)).toBe(after);
        expect(slotAfter(t, before)).toBe(after);
        expect(slotsBetween(t, before, after)).toBe(0);
        expect(slotsBetween(t, before - 1, after + 1)).toBe(2);
      }),
      { numRuns: 3000 },
    );
  });

  it('property: fixed cycle slots are exactly cycle seconds apart; cycles dividing an hour keep the wall-clock minutes', () => {
    fc.assert(
      fc.property(cycleArb, timeArb, (cycle, at) => {
        const s = slotAfter(fixed(cycle), at);
        expect(slotAfter(fixed(cycle), s) - s).toBe(cycle * S);
        expect(s - slotAtOrBefore(fixed(cycle), at)).toBe(cycle * S);
        if (3600 % cycle === 0) {
          const d = new Date(s);
          expect((d.getMinutes() * 60 + d.getSeconds()) % cycle).toBe(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('property: specified-time slots of a day start at time_start, are cycle apart, end before midnight, at most repeat_count', () => {
    fc.assert(
      fc.property(
        settingsArb.filter((t) => t.trigger === 2 && t.cycle >= 120),
        fc.integer({ min: MIN_T, max: MAX_T }),
        (t, at) => {
          const day = localMidnight(at);
          const next = localMidnight(day + 30 * H);
          const slots: number[] = [];
          for (let s = slotAfter(t, day - 1); s < next; s = slotAfter(t, s)) slots.push(s);
          expect(slots.length).toBeGreaterThanOrEqual(1);
          if (t.repeat_count > 0) expect(slots.length).toBeLessThanOrEqual(t.repeat_count);
          const d = new Date(slots[0]!);
          const wallStart = d.getHours() * 3600 + d.getMinutes() * 60 + d.getSeconds();
          // the wall-clock time_start, unless it fell into the spring gap (then one hour later)
          expect([t.time_start, t.time_start + 3600]).toContain(wallStart);
          for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(t.cycle * S);
          // the day's last slot is the last one: one more cycle would reach midnight or the cap
          const after = slots[slots.length - 1]! + t.cycle * S;
          expect(after >= next || slots.length === t.repeat_count).toBe(true);
          expect(slotsBetween(t, day - 1, next)).toBe(slots.length);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('property: slotsBetween counts what stepping from slot to slot finds', () => {
    fc.assert(
      fc.property(
        settingsArb.filter((t) => t.cycle >= 300),
        timeArb,
        fc.integer({ min: 0, max: 5 * 86400 * S }),
        (t, from, span) => {
          let n = 0;
          for (let s = slotAfter(t, from); s < from + span; s = slotAfter(t, s)) n++;
          expect(slotsBetween(t, from, from + span)).toBe(n);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: a timer run — due times strictly increase, never before now; every slot is recorded or counted missed', () => {
    fc.assert(
      fc.property(settingsArb, timeArb, fc.array(fc.oneof(fc.nat(2000), fc.nat(3 * 86400 * S)), { minLength: 1, maxLength: 30 }), (t, start, lateness) => {
        let { due } = timedStart(t, start, 0);
        expect(due).toBeGreaterThanOrEqual(start);
        const first = due;
        let now = start;
        let recorded = 0;
        let missed = 0;
        let lastSlot = -Infinity;
        for (const late of lateness) {
          now = due + late;
          const step = timedStep(t, due, now);
          expect(step.record).toBe(true);
          expect(step.due).toBeGreaterThan(now);
          expect(step.due).toBeGreaterThan(due);
          expect(step.slot!).toBeGreaterThan(lastSlot);
          lastSlot = step.slot!;
          recorded++;
          missed += step.missed;
          due = step.due;
        }
        expect(recorded + missed).toBe(slotsBetween(t, first - 1, lastSlot + 1));
        // a restart after the last record finds the same next slot and counts nothing twice
        expect(timedStart(t, now, lastSlot / S)).toEqual({ due, missed: 0 });
      }),
      { numRuns: 400 },
    );
  });
});

// ---- condition (3) and PLC flag (4) ----

const cfg = { cycle: 60, repeat_count: 0 };
const T0 = local(2024, 5, 1, 12);

/** Runs a list of (time, levels?) steps and returns what happened at each. */
function run(c: { cycle: number; repeat_count: number }, steps: [number, FlagLevels?][], state: ConditionState = conditionStart(0)) {
  const out: string[] = [];
  for (const [at, levels] of steps) {
    const r = conditionStep(c, state, at, levels);
    state = r.state;
    const what = [
      r.started && 'start',
      r.record && `record${r.missed ? `+${r.missed}` : ''}`,
      r.stopped && `stop:${r.stopped}`,
      r.flush && `flush:${r.flush}`,
    ].filter(Boolean);
    if (what.length) out.push(`${(at - T0) / S}s ${what.join(' ')}`);
  }
  return { out, state };
}

describe('condition trigger (3)', () => {
  it('runs from a rising cond_trig until cond_end rises, recording each cycle', () => {
    const { out, state } = run(cfg, [
      [T0, { trig: false, end: false }],
      [T0 + 1 * S, { trig: true, end: false }],
      [T0 + 30 * S, { trig: false, end: false }], // trig falls: with cond_end set the run goes on
      [T0 + 61 * S],
      [T0 + 121 * S],
      [T0 + 150 * S, { trig: false, end: true }],
      [T0 + 181 * S],
    ]);
    expect(out).toEqual(['1s start record', '61s record', '121s record', '150s stop:end flush:run_end']);
    expect(state.running).toBe(false);
  });

  it('without cond_end: runs while cond_trig stays high', () => {
    const { out } = run(cfg, [
      [T0, { trig: false }],
      [T0 + 5 * S, { trig: true }],
      [T0 + 65 * S, { trig: true }],
      [T0 + 90 * S, { trig: false }],
      [T0 + 125 * S],
    ]);
    expect(out).toEqual(['5s start record', '65s record', '90s stop:end flush:run_end']);
  });

  it('a rising cond_trig while cond_end is high starts nothing', () => {
    const { out } = run(cfg, [
      [T0, { trig: false, end: true }],
      [T0 + S, { trig: true, end: true }],
      [T0 + 2 * S, { trig: true, end: false }], // no new edge of cond_trig
      [T0 + 3 * S, { trig: false, end: false }],
      [T0 + 4 * S, { trig: true, end: false }],
    ]);
    expect(out).toEqual(['4s start record']);
  });

  it('repeat_count ends a run; the next needs a new rising edge', () => {
    const { out } = run({ cycle: 10, repeat_count: 2 }, [
      [T0, { trig: false }],
      [T0 + S, { trig: true }],
      [T0 + 11 * S],
      [T0 + 21 * S, { trig: true }],
      [T0 + 30 * S, { trig: false }],
      [T0 + 31 * S, { trig: true }],
    ]);
    expect(out).toEqual(['1s start record', '11s record stop:limit flush:run_end', '31s start record']);
  });

  it('a late timer records once and counts the cycles it missed', () => {
    const { out, state } = run(cfg, [[T0, { trig: true }], [T0 + 200 * S]]);
    expect(out).toEqual(['0s start record', '200s record+2']);
    expect(state.due).toBe(T0 + 240 * S);
  });

  it('after a restart a high cond_trig resumes the run, in the rhythm of last_trig when it is recent', () => {
    const last = T0 - 20 * S;
    const resumed = run(cfg, [[T0, { trig: true }], [T0 + 40 * S]], conditionStart(last / S));
    expect(resumed.out).toEqual(['0s start', '40s record']);
    const old = run(cfg, [[T0, { trig: true }]], conditionStart((T0 - 600 * S) / S));
    expect(old.out).toEqual(['0s start record']);
    // a high cond_end at the first poll is a level: no run
    expect(
      run(cfg, [
        [T0, { trig: true, end: true }],
        [T0 + S, { trig: true, end: true }],
      ]).out,
    ).toEqual([]);
  });

  it('a rising cond_store asks for the cached records; a high one at the first poll does not', () => {
    const { out } = run(cfg, [
      [T0, { trig: false, store: true }],
      [T0 + S, { trig: false, store: false }],
      [T0 + 2 * S, { trig: false, store: true }],
    ]);
    expect(out).toEqual(['2s flush:store']);
  });

  it('property: records only in runs, at most repeat_count per run, their slots whole cycles apart, due never before now', () => {
    const event = fc.record({ dt: fc.integer({ min: 1, max: 200 }), poll: fc.boolean(), trig: fc.boolean(), end: fc.boolean(), store: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.nat(4), fc.boolean(), fc.array(event, { maxLength: 60 }), (cycle, repeat, withEnd, events) => {
        const c = { cycle, repeat_count: repeat };
        let state = conditionStart(0);
        let now = T0;
        let inRun: number[] | undefined;
        for (const e of events) {
          now += e.dt * S;
          const levels = e.poll ? { trig: e.trig, store: e.store, ...(withEnd ? { end: e.end } : {}) } : undefined;
          const r = conditionStep(c, state, now, levels);
          if (r.started) {
            expect(state.running).toBe(false);
            inRun = [];
          }
          if (r.record) {
            expect(inRun).toBeDefined();
            const slot = r.slot!;
            expect(slot).toBeLessThanOrEqual(now);
            expect(now - slot).toBeLessThan(cycle * S);
            const prev = inRun!.at(-1);
            if (prev !== undefined) {
              expect(slot - prev).toBeGreaterThanOrEqual(cycle * S);
              expect((slot - prev) % (cycle * S)).toBe(0);
            }
            inRun!.push(slot);
            if (repeat > 0) expect(inRun!.length).toBeLessThanOrEqual(repeat);
          }
          if (r.stopped) {
            expect(r.flush).toBe('run_end');
            inRun = undefined;
          }
          expect(r.state.running).toBe(inRun !== undefined);
          if (r.state.running) expect(r.state.due!).toBeGreaterThan(now);
          state = r.state;
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('PLC flag trigger (4)', () => {
  it('one record per rising edge; a flag already high at the first poll is no edge', () => {
    let s = {};
    const seq: FlagLevels[] = [{ trig: true }, { trig: true }, { trig: false }, { trig: true }, { trig: true }, { trig: false }, { trig: true }];
    const records = seq.map((l) => {
      const r = flagStep(s, l);
      s = r.state;
      return r.record;
    });
    expect(records).toEqual([false, false, false, true, false, false, true]);
    expect(flagStep({ prev: { trig: false, store: false } }, { trig: false, store: true })).toEqual({
      state: { prev: { trig: false, store: true } },
      record: false,
      flush: 'store',
    });
    expect(flagStep({}, { trig: true, store: true }).flush).toBeUndefined();
  });
});

describe('write cache (delay_store)', () => {
  const rec = (file: string, item: number): CacheEvent<number> => ({ kind: 'record', file, item });
  const feed = (delay: number, events: CacheEvent<number>[]) => {
    let cache: RecordCache<number> = emptyCache();
    const writes: CacheWrite<number>[] = [];
    for (const e of events) {
      const r = cacheStep(cache, delay, e);
      cache = r.cache;
      writes.push(...r.writes);
    }
    return { cache, writes };
  };

  it('writes delay_store records at a time', () => {
    const r = feed(3, [rec('a', 1), rec('a', 2), rec('a', 3), rec('a', 4)]);
    expect(r.writes).toEqual([{ file: 'a', items: [1, 2, 3], reason: 'count' }]);
    expect(r.cache).toEqual({ file: 'a', items: [4] });
  });

  it('a new file writes the cached records of the old one first', () => {
    const r = feed(10, [rec('a', 1), rec('a', 2), rec('b', 3)]);
    expect(r.writes).toEqual([{ file: 'a', items: [1, 2], reason: 'file_change' }]);
    expect(r.cache).toEqual({ file: 'b', items: [3] });
  });

  it('cond_store, the end of a run and a stop write what is cached; nothing cached, nothing written', () => {
    expect(feed(10, [rec('a', 1), { kind: 'store' }]).writes).toEqual([{ file: 'a', items: [1], reason: 'store' }]);
    expect(feed(10, [rec('a', 1), { kind: 'run_end' }]).writes).toEqual([{ file: 'a', items: [1], reason: 'run_end' }]);
    expect(feed(10, [rec('a', 1), rec('a', 2), { kind: 'stop' }, { kind: 'stop' }]).writes).toEqual([{ file: 'a', items: [1, 2], reason: 'stop' }]);
    expect(feed(10, [{ kind: 'stop' }]).writes).toEqual([]);
  });

  it('delay_store 1 writes each record; past the cache of 20 it is held to 20 (spec §9)', () => {
    expect(feed(1, [rec('a', 1), rec('a', 2)]).writes.map((w) => w.items)).toEqual([[1], [2]]);
    const big = feed(
      50,
      Array.from({ length: 45 }, (_, i) => rec('a', i)),
    );
    expect(big.writes.map((w) => w.items.length)).toEqual([20, 20]);
    expect(big.cache.items).toHaveLength(5);
  });

  it('property: every record is written once, in order, each write to one file and at most delay_store long', () => {
    const ev = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('record' as const), file: fc.constantFrom('a', 'b', 'c'), item: fc.nat() }) },
      { weight: 1, arbitrary: fc.constantFrom({ kind: 'store' as const }, { kind: 'run_end' as const }, { kind: 'stop' as const }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 25 }), fc.array(ev, { maxLength: 120 }), (delay, events) => {
        const { cache, writes } = feed(delay, events);
        const records = events.flatMap((e) => (e.kind === 'record' ? [e] : []));
        const written = [
          ...writes.flatMap((w) => w.items.map((item) => ({ file: w.file, item }))),
          ...cache.items.map((item) => ({ file: cache.file!, item })),
        ];
        expect(written).toEqual(records.map((r) => ({ file: r.file, item: r.item })));
        for (const w of writes) {
          expect(w.items.length).toBeGreaterThan(0);
          expect(w.items.length).toBeLessThanOrEqual(Math.min(delay, 20));
        }
        expect(cache.items.length).toBeLessThan(Math.min(delay, 20));
      }),
      { numRuns: 1000 },
    );
  });
});
