// Every configuration section as a saved and a temporary (edited) copy (spec §3), 'changed'
// computed from the two (the equality flags), validation info per section, load, save, save-all
// and reset (spec §4, §7).
import { batch, computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { Issue } from '../../device/model/issues.ts';
import { CONFIG_KEYS } from '../../device/model/keys.ts';
import { ALL_SECTIONS_PATH } from '../../device/model/start-answers.ts';
import { type ApiIssue, get } from '../api/client.ts';
import { jsonEqual, setPath } from './equal.ts';
import { ensureModel, model } from './model.ts';

type Value = Record<string, unknown>;

export interface Validation {
  invalid: boolean;
  issues: Issue[];
  /** spec §3 configuration index */
  index: number;
  /** for pew_log: the number of the first log file with a problem (1-based) */
  subindex?: number;
}

export interface SectionState {
  key: string;
  /** spec §3 configuration index */
  index: number;
  saved: Signal<Value>;
  temp: Signal<Value>;
  /** the section's equality flag, inverted: saved and temporary copies differ */
  changed: ReadonlySignal<boolean>;
  /** the last load failed: both copies hold the defaults */
  fetchFailed: Signal<boolean>;
  /** problems the server reported for the temporary copy at the last save */
  serverIssues: Signal<ApiIssue[]>;
  /** empty (valid) until the model is loaded */
  validation: ReadonlySignal<Validation>;
  /**
   * `validation` as the pages show it (fields' messages, the menu's markers): brought up to date
   * in a task of its own after an edit, so that a key typed into a field of a large section (700
   * log points) renders in one task and the section's check runs in the next, each short. A save
   * reads `validation`, which is always up to date.
   */
  shownValidation: ReadonlySignal<Validation>;
}

const states = new Map<string, SectionState>();
const cross = computed(() => {
  const m = model.value;
  if (!m || !loaded.value) return {};
  const temps: Record<string, unknown> = {};
  for (const [key, s] of states) temps[key] = s.temp.value;
  try {
    return m.crossSectionIssues(m.CONFIG_SECTIONS, temps);
  } catch {
    return {}; // a section that does not pass its own schema yet is reported there
  }
});
export const loaded = signal(false);
/**
 * counts the tasks after edits in which the shown validation caught up (shownValidation); 0 until
 * the first of them: a render before it shows no check, the daemon's first frame (which runs no
 * tasks) never does, which spared it checking every section (700 log points: 27 of the 36 ms a
 * frame of /graphs took to render in the daemon, 2026-12-04)
 */
const shownAt = signal(0);
const NONE: Issue[] = [];

for (const [key, index] of CONFIG_KEYS) {
  const saved = signal<Value>({});
  const temp = signal<Value>({});
  // this section's cross-section issues, the same list while they stay the same: an edit of one
  // section checks that section again, not every section whose page is in the menu
  let lastCross = NONE;
  const crossIssues = computed(() => {
    const now = cross.value[key] ?? NONE;
    return jsonEqual(now, lastCross) ? lastCross : (lastCross = now);
  });
  const none: Validation = { invalid: false, issues: [], index };
  const validation = computed<Validation>(() => {
    const m = model.value;
    const def = m?.sectionByKey(key);
    if (!def || !loaded.value) return none;
    const own = m!.validateSection(def, temp.value);
    // a masked password whose server, port or proxy changed must be typed again (security.md SEC-2)
    const stale = m!.staleMaskIssues(def, temp.value, saved.value);
    const issues = [...stale, ...(own.ok ? [] : own.issues), ...crossIssues.value];
    const log = key === 'pew_log' ? issues.map((i) => /^log_def\.(\d+)/.exec(i.path)).find(Boolean) : null;
    return { invalid: issues.length > 0, issues, index, ...(log ? { subindex: Number(log[1]) + 1 } : {}) };
  });
  states.set(key, {
    key,
    index,
    saved,
    temp,
    validation,
    shownValidation: computed(() => (shownAt.value ? validation.peek() : none)),
    changed: computed(() => !jsonEqual(saved.value, temp.value)),
    fetchFailed: signal(false),
    serverIssues: signal<ApiIssue[]>([]),
  });
}

// after a change of the copies or the model, the shown validation catches up in a task of its own,
// once the console's first page is on screen (startShownChecks)
let due = false;
let started = false;
const catchUp = () => {
  if (due || !started) return;
  due = true;
  setTimeout(() => {
    due = false;
    shownAt.value++;
  });
};
effect(() => {
  void [model.value, loaded.value];
  for (const s of states.values()) void [s.temp.value, s.saved.value];
  catchUp();
});

/**
 * Lets the shown validation catch up, from now on. The console calls it once its first page is
 * shown and the browser is idle (web/after-start.ts): the menu's markers read every section's check,
 * and a catch-up before the first render made that render check every section (700 log points:
 * 70-100 ms of the render at CPU 4×, before a deep link to /#/com showed its data).
 */
export function startShownChecks(): void {
  started = true;
  catchUp();
}

export function section(key: string): SectionState {
  const s = states.get(key);
  if (!s) throw new Error(`unknown section ${key}`);
  return s;
}
export const allSections = () => [...states.values()];
export const anyChanged = computed(() => allSections().some((s) => s.changed.value));

export async function defaultsFor(key: string): Promise<Value> {
  const m = await ensureModel();
  return m.defaultsOf(m.sectionByKey(key)!) as Value;
}

/** One section on its own request; a failed one gets defaults and is marked (spec §4). */
async function loadOne(s: SectionState): Promise<void> {
  try {
    accept(s.key, await get<Value>(`/config/${s.key}`));
  } catch (e) {
    console.error(`loading ${s.key} failed`, e);
    const d = await defaultsFor(s.key);
    batch(() => {
      s.saved.value = d;
      s.temp.value = d;
      s.fetchFailed.value = true;
    });
  }
}

/**
 * Loads every section (spec §7 "on load"): all of them in one request (`GET /config`, a few KB
 * gzip-encoded, instead of one request per section); when that fails, or leaves a section out,
 * those sections are asked for one by one, and a failed one gets defaults and is marked (spec §4).
 */
export async function loadSections(): Promise<void> {
  let all: Record<string, Value> = {};
  try {
    all = await get<Record<string, Value>>(ALL_SECTIONS_PATH);
  } catch (e) {
    console.error('loading GET /config failed', e);
  }
  const rest = allSections().filter((s) => !isValue(all[s.key]));
  batch(() => {
    for (const s of allSections()) {
      const value = all[s.key];
      if (isValue(value)) accept(s.key, value);
    }
  });
  await Promise.all(rest.map(loadOne));
  loaded.value = true;
}

const isValue = (v: unknown): v is Value => typeof v === 'object' && v !== null && !Array.isArray(v);

export function setField(key: string, path: string, value: unknown): void {
  const s = section(key);
  s.temp.value = setPath(s.temp.value, path, value);
  if (s.serverIssues.value.length) s.serverIssues.value = s.serverIssues.value.filter((i) => i.path !== path);
}

/** Drops the edits of a section (temporary copy back to the saved one). */
export function revert(key: string): void {
  const s = section(key);
  batch(() => {
    s.temp.value = s.saved.value;
    s.serverIssues.value = [];
  });
}

/** A section's copies as the daemon answered them (after a load or a save). */
export function accept(key: string, value: Value) {
  const s = section(key);
  batch(() => {
    s.saved.value = value;
    s.temp.value = value;
    s.fetchFailed.value = false;
    s.serverIssues.value = [];
  });
}
