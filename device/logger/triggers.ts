// When a log file records (spec §3 trigger types: disabled 0, fixed cycle 1, specified time 2,
// condition 3, PLC flag 4; §9 Logger: cycle 1-86500 s, cache 20, delay store 10). Pure: every
// function takes the time (ms since the epoch) and answers what to do; wall-clock rules use the
// local time zone of the process (the unit's), so tests pin TZ.
//
// Fixed cycle (1): records on a grid of `cycle` seconds of real time counted from midnight of
//   1 January 1970 in the zone's winter time (the smaller UTC offset of January and July), so a
//   cycle dividing one day passes through every winter-time midnight; a cycle that does not (7 s,
//   86500 s) keeps its spacing across midnights instead of restarting there. A cycle dividing one hour
//   lands on the same wall-clock minutes all year (900 s: :00, :15, :30, :45), also across DST
//   changes, and the grid never breaks: consecutive records are exactly `cycle` seconds apart.
//   Longer cycles keep the real-time spacing and move by the DST shift on the wall clock (86400 s:
//   00:00 in winter, 01:00 in summer); the specified-time trigger follows the wall clock instead.
//   repeat_count does not apply (a grid has no activations).
// Specified time (2): each local day, the first record when the wall clock shows `time_start`
//   (in the spring DST gap the first moment after it, in the autumn repeat the first of the two),
//   then every `cycle` seconds of real time while before the next local midnight; repeat_count > 0
//   caps the records of a day.
// Both: a slot that passed while the daemon was down or the timer was late is not back-filled but
//   counted as missed; a late timer records the latest slot once. last_trig (Unix seconds of the
//   last record, kept across restarts) keeps a restart from recording the same slot twice and
//   gives the count of slots missed while down; a last_trig later than now (the clock was set
//   back) is ignored.
// Condition (3): see conditionStep. PLC flag (4): see flagStep. Write cache: see cacheStep.
import { CONDITION, type LogFile, PLC_FLAG } from '../model/sections/logfile.ts';

export const DISABLED = 0; // spec §3 trigger types
export const FIXED_CYCLE = 1;
export const SPECIFIED_TIME = 2;
export { CONDITION, PLC_FLAG };
/** spec §9 Logger: cache 20 — the most records held before a write. */
export const CACHE_MAX = 20;

export type TimedSettings = Pick<LogFile, 'trigger' | 'cycle' | 'time_start' | 'repeat_count'>;

const MINUTE = 60_000;
const SECOND = 1000;

/** The zone's winter UTC offset in ms (local winter time = UTC + offset) for the year of `at`. */
export function winterOffset(at: number): number {
  const y = new Date(at).getFullYear();
  return -Math.max(new Date(y, 0, 1).getTimezoneOffset(), new Date(y, 6, 1).getTimezoneOffset()) * MINUTE;
}

interface Day {
  y: number;
  m: number;
  d: number;
}

const dayOf = (at: number): Day => {
  const t = new Date(at);
  return { y: t.getFullYear(), m: t.getMonth(), d: t.getDate() };
};
const addDays = (day: Day, n: number): Day => dayOf(new Date(day.y, day.m, day.d + n, 12).getTime());

/** The local midnight starting the day of `at` (the first moment of the day where DST skips midnight). */
export const localMidnight = (at: number): number => {
  const d = dayOf(at);
  return new Date(d.y, d.m, d.d).getTime();
};

/** A day's slots of the specified-time trigger: the first and how many. */
function daySlots(t: TimedSettings, day: Day): { first: number; count: number } {
  const first = new Date(day.y, day.m, day.d, 0, 0, t.time_start).getTime();
  const end = new Date(day.y, day.m, day.d + 1).getTime();
  const c = t.cycle * SECOND;
  const all = first < end ? Math.ceil((end - first) / c) : 0;
  return { first, count: t.repeat_count > 0 ? Math.min(all, t.repeat_count) : all };
}

function timed(t: TimedSettings): void {
  if (t.trigger !== FIXED_CYCLE && t.trigger !== SPECIFIED_TIME) throw new RangeError(`trigger ${t.trigger} has no time slots`);
  if (!(Number.isInteger(t.cycle) && t.cycle >= 1)) throw new RangeError(`cycle ${t.cycle} is not a whole number of seconds`);
}

// zones that skip or repeat a whole day are unknown; two weeks bound the search for a day with slots
const DAY_SEARCH = 14;

/** The latest slot at or before `at`. */
export function slotAtOrBefore(t: TimedSettings, at: number): number {
  timed(t);
  const c = t.cycle * SECOND;
  if (t.trigger === FIXED_CYCLE) {
    const off = winterOffset(at);
    return Math.floor((at + off) / c) * c - off;
  }
  let day = dayOf(at);
  for (let i = 0; i < DAY_SEARCH; i++, day = addDays(day, -1)) {
    const { first, count } = daySlots(t, day);
    if (count > 0 && first <= at) return first + Math.min(Math.floor((at - first) / c), count - 1) * c;
  }
  throw new RangeError('no slot in the last two weeks');
}

/** The earliest slot strictly after `at`. */
export function slotAfter(t: TimedSettings, at: number): number {
  timed(t);
  const c = t.cycle * SECOND;
  if (t.trigger === FIXED_CYCLE) return slotAtOrBefore(t, at) + c;
  let day = dayOf(at);
  for (let i = 0; i < DAY_SEARCH; i++, day = addDays(day, 1)) {
    const { first, count } = daySlots(t, day);
    const k = at < first ? 0 : Math.floor((at - first) / c) + 1;
    if (k < count) return first + k * c;
  }
  throw new RangeError('no slot in the next two weeks');
}

/** The number of slots s with from < s < to. */
export function slotsBetween(t: TimedSettings, from: number, to: number): number {
  timed(t);
  if (to <= from) return 0;
  const c = t.cycle * SECOND;
  if (t.trigger === FIXED_CYCLE) {
    const off = winterOffset(to);
    return Math.max(0, Math.ceil((to + off) / c) - 1 - Math.floor((from + off) / c));
  }
  let n = 0;
  const last = localMidnight(to);
  for (let day = dayOf(from); new Date(day.y, day.m, day.d).getTime() <= last; day = addDays(day, 1)) {
    const { first, count } = daySlots(t, day);
    const lo = from < first ? 0 : Math.floor((from - first) / c) + 1;
    const hi = Math.min(count - 1, to > first ? Math.ceil((to - first) / c) - 1 : -1);
    n += Math.max(0, hi - lo + 1);
  }
  return n;
}

/**
 * The first due time of a time-driven log file after a (re)start at `now`: the first slot at or
 * after now that is later than the last record (`lastTrig`, Unix seconds, 0 = never), and the
 * slots missed since that record.
 */
export function timedStart(t: TimedSettings, now: number, lastTrig: number): { due: number; missed: number } {
  const last = lastTrig * SECOND;
  const known = lastTrig > 0 && last <= now;
  const due = slotAfter(t, known ? Math.max(now - 1, last) : now - 1);
  return { due, missed: known ? slotsBetween(t, last, due) : 0 };
}

export interface TimedStep {
  /** a record is due now */
  record: boolean;
  /** the slot the record stands for (the latest slot at or before now) */
  slot?: number;
  /** slots between the due time and this record that were skipped (a late timer, a clock jump) */
  missed: number;
  /** the next due time, always after now */
  due: number;
}

/**
 * What a time-driven log file does when its timer (set to `due`) fires at `now`. Early: nothing.
 * Late: the latest slot is recorded once and the ones before it counted. When the clock went back
 * by more than one slot interval (two slots or more lie between now and `due`) the next slot after
 * now becomes due; a smaller step back waits for `due`, so no slot is recorded twice.
 */
export function timedStep(t: TimedSettings, due: number, now: number): TimedStep {
  const next = slotAfter(t, now);
  if (now < due) return { record: false, missed: 0, due: slotAfter(t, next) < due ? next : due };
  const slot = slotAtOrBefore(t, now);
  return { record: true, slot, missed: slotsBetween(t, due - 1, slot), due: next };
}

// ---------------------------------------------------------------------------------------------
// Condition (3) and PLC flag (4): state machines fed with the flag levels of each poll.

/** The levels read at a poll: `end` only when cond_end is set, `store` only with enable_cond_store. */
export interface FlagLevels {
  trig: boolean;
  end?: boolean;
  store?: boolean;
}

export interface ConditionState {
  /** levels of the previous poll; none before the first */
  prev?: FlagLevels;
  running: boolean;
  /** the next record of a run */
  due?: number;
  /** records in the current run */
  count: number;
  /** ms of the last record (from last_trig after a restart) */
  last?: number;
}

export type ConditionSettings = Pick<LogFile, 'cycle' | 'repeat_count'>;

export interface ConditionStep {
  state: ConditionState;
  record: boolean;
  /** the run's cycle time the record stands for: the run's start plus whole cycles */
  slot?: number;
  /** run cycles that passed without a record (a late timer) */
  missed: number;
  /** write the cached records now: cond_store rose, or the run ended */
  flush?: 'store' | 'run_end';
  started: boolean;
  /** why the run ended at this step: cond_end rose (or cond_trig fell without cond_end), or repeat_count was reached */
  stopped?: 'end' | 'limit';
}

/** The condition machine after a (re)start; `lastTrig` (Unix seconds, 0 = never) keeps a resumed run's rhythm. */
export const conditionStart = (lastTrig: number): ConditionState => ({ running: false, count: 0, ...(lastTrig > 0 ? { last: lastTrig * SECOND } : {}) });

const rose = (now: boolean | undefined, before: boolean | undefined): boolean => now === true && before === false;

/**
 * One step of the condition trigger (3), at a poll (with `levels`) or when the record timer fires
 * (without). A run starts at a rising edge of cond_trig and ends when cond_end rises, or, when
 * cond_end is empty, when cond_trig falls; a rising cond_trig while cond_end is high starts
 * nothing. The run records at once and then every `cycle` seconds of real time; repeat_count > 0
 * ends it after that many records (the next run needs a new rising edge). The end of a run
 * flushes the cache so a finished run is on the storage; a rising cond_store flushes it too.
 * After a (re)start the first poll counts a high cond_trig as a rising edge, so a run that was
 * going on resumes (when cond_end is low); it keeps the rhythm of the last record (last_trig)
 * when that is less than a cycle ago. cond_end and cond_store already high at the first poll are
 * levels, not edges.
 */
export function conditionStep(cfg: ConditionSettings, s: ConditionState, now: number, levels?: FlagLevels): ConditionStep {
  const c = cfg.cycle * SECOND;
  let state: ConditionState = { ...s };
  let flush: ConditionStep['flush'];
  let started = false;
  let stopped: ConditionStep['stopped'];
  if (levels) {
    const first = s.prev === undefined;
    const prev: FlagLevels = s.prev ?? { trig: false, end: levels.end, store: levels.store };
    if (rose(levels.store, prev.store)) flush = 'store';
    const hasEnd = levels.end !== undefined;
    if (state.running && (hasEnd ? rose(levels.end, prev.end) : prev.trig && !levels.trig)) {
      state = { ...state, running: false, due: undefined };
      stopped = 'end';
      flush = 'run_end';
    }
    if (!state.running && !stopped && rose(levels.trig, prev.trig) && !(hasEnd && levels.end)) {
      const resume = first && state.last !== undefined && state.last <= now && now < state.last + c;
      state = { ...state, running: true, count: 0, due: resume ? state.last! + c : now };
      started = true;
    }
    state.prev = levels;
  }
  let record = false;
  let missed = 0;
  let slot: number | undefined;
  if (state.running && state.due !== undefined && state.due <= now) {
    record = true;
    missed = Math.floor((now - state.due) / c);
    slot = state.due + missed * c;
    state = { ...state, due: slot + c, count: state.count + 1, last: now };
    if (cfg.repeat_count > 0 && state.count >= cfg.repeat_count) {
      state = { ...state, running: false, due: undefined };
      stopped = 'limit';
      flush = 'run_end';
    }
  }
  return { state, record, missed, started, ...(slot !== undefined ? { slot } : {}), ...(flush ? { flush } : {}), ...(stopped ? { stopped } : {}) };
}

export interface FlagState {
  prev?: FlagLevels;
}

/**
 * One poll of the PLC flag trigger (4): each rising edge of cond_trig asks for one record (at
 * once); a rising cond_store flushes the cache. Flags already high at the first poll after a
 * (re)start are levels, not edges: a request served before the restart is not served twice.
 */
export function flagStep(s: FlagState, levels: FlagLevels): { state: FlagState; record: boolean; flush?: 'store' } {
  const prev = s.prev ?? levels;
  return { state: { prev: levels }, record: rose(levels.trig, prev.trig), ...(rose(levels.store, prev.store) ? { flush: 'store' as const } : {}) };
}

// ---------------------------------------------------------------------------------------------
// The write cache (spec §9: cache 20, delay store 10; §5 storage wear): records are kept and
// written delay_store at a time. A write goes to one file only.

export interface RecordCache<T> {
  /** the file the cached records belong to */
  file?: string;
  items: T[];
}

export type CacheEvent<T> =
  | { kind: 'record'; file: string; item: T }
  /** cond_store rose, or a condition run ended */
  | { kind: 'store' | 'run_end' }
  /** logging stops: disabled, settings changed, the daemon stops */
  | { kind: 'stop' };

export type FlushReason = 'count' | 'file_change' | 'store' | 'run_end' | 'stop';

export interface CacheWrite<T> {
  file: string;
  items: T[];
  reason: FlushReason;
}

export const emptyCache = <T>(): RecordCache<T> => ({ items: [] });

/**
 * The cache policy: a record for another file than the cached ones writes those first
 * (`file_change`: the split period ended); a record that brings the cache to `delayStore`
 * (clamped to 1–CACHE_MAX) writes it (`count`); store, run end and stop write what is cached.
 */
export function cacheStep<T>(cache: RecordCache<T>, delayStore: number, ev: CacheEvent<T>): { cache: RecordCache<T>; writes: CacheWrite<T>[] } {
  const writes: CacheWrite<T>[] = [];
  const out = (reason: FlushReason): void => {
    if (cache.file !== undefined && cache.items.length > 0) writes.push({ file: cache.file, items: cache.items, reason });
  };
  if (ev.kind !== 'record') {
    out(ev.kind);
    return { cache: emptyCache(), writes };
  }
  if (ev.file !== cache.file) out('file_change');
  const items = ev.file === cache.file ? [...cache.items, ev.item] : [ev.item];
  if (items.length >= Math.min(Math.max(1, delayStore), CACHE_MAX)) {
    writes.push({ file: ev.file, items, reason: 'count' });
    return { cache: emptyCache(), writes };
  }
  return { cache: { file: ev.file, items }, writes };
}
