// What the crash-safety loop (security.md CFG-1) saves at each generation, and the check run on
// every restart. Shared by the child (test/fixtures/save-loop.ts, bundled without esbuild or
// child_process) and the harness (test/support/crash-loop.ts), so both agree on the encoding.
//
// Encoding: a generation g (0 = the seed) lives in valid field values.
//   - pew_mqtt.keep_alive = g            carried by every generation (the latest one)
//   - pew.restart_by_time = g % 501      carried only by save-all generations
//   - pew_redirect: one thread, port 20000 + g % 40000
// Every fourth generation (g % 4 === 0, g > 0) saves pew_mqtt alone; the others save all three
// sections in one store.save() call (one transaction). Sections outside these three keep their
// defaults all along.
//
// Invariant after any kill and restart, with g = the loaded pew_mqtt.keep_alive and
// h = lastSaveAll(g) (g itself, or g - 1 when g was a single save):
//   1. opening the store logs no error and no repair (a torn or unparsable file shows up there);
//   2. every section deep-equals its value at its generation: pew_mqtt at g, pew and pew_redirect
//      at h, the others at their defaults — so a save-all is either entirely in or entirely out;
//   3. after the restart the folder holds only the section files (temps and journal cleaned);
//   4. (checked by the harness) g is the last generation the child reported saved, or the one after.
import { readdir } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { ConfigStore } from '../../device/config/store.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf, type SectionDef, validateSection, withDefaults } from '../../device/model/section.ts';
import { createLogger, type LogEntry } from '../../device/system/log.ts';
import { systemClock } from '../../hw/types.ts';

/** keep_alive is 0..65535, so the generation must stay inside that range to be unambiguous. */
export const GENERATION_LIMIT = 65535;
export const SAVE_ALL_KEYS = ['pew', 'pew_redirect', 'pew_mqtt'] as const;

export const isSingleSave = (g: number): boolean => g > 0 && g % 4 === 0;
export const lastSaveAll = (g: number): number => (isSingleSave(g) ? g - 1 : g);

const defOf = (key: string): SectionDef => {
  const def = CONFIG_SECTIONS.find((d) => d.key === key);
  if (!def) throw new Error(`section ${key} is not in CONFIG_SECTIONS`);
  return def;
};

/** What a save submits for one section at generation g: a whole section (saves refuse partial ones). */
function inputFor(key: (typeof SAVE_ALL_KEYS)[number], g: number): unknown {
  const fields = key === 'pew_mqtt' ? { keep_alive: g % 65536 } : key === 'pew' ? { restart_by_time: g % 501 } : { threads: [{ port: 20000 + (g % 40000) }] };
  return withDefaults(defOf(key).schema, fields);
}

/** The value the store keeps for an input: validated and parsed as a save does it. */
function normalized(key: string, input: unknown): unknown {
  const checked = validateSection(defOf(key), input);
  if (!checked.ok) throw new Error(`generation input for ${key} is invalid: ${JSON.stringify(checked.issues)}`);
  return checked.value;
}

/** The changes the child saves at generation g: pew_mqtt alone, or the three sections at once. */
export function changesFor(g: number): Record<string, unknown> {
  const keys = isSingleSave(g) ? (['pew_mqtt'] as const) : SAVE_ALL_KEYS;
  return Object.fromEntries(keys.map((k) => [k, inputFor(k, g)]));
}

/** The stored value of every section once generation g is the latest one. */
export function expectedState(g: number): Record<string, unknown> {
  const h = lastSaveAll(g);
  const out: Record<string, unknown> = Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, defaultsOf(d)]));
  out.pew = normalized('pew', inputFor('pew', h));
  out.pew_redirect = normalized('pew_redirect', inputFor('pew_redirect', h));
  out.pew_mqtt = normalized('pew_mqtt', inputFor('pew_mqtt', g));
  return out;
}

/** Generation 0: every section written once, so a restart never meets a missing file. */
export async function seedStore(configDir: string): Promise<void> {
  const store = await ConfigStore.open({ dir: configDir, defs: CONFIG_SECTIONS, log: createLogger({ clock: systemClock, sink: null }) });
  const seed = { ...Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, defaultsOf(d)])), ...changesFor(0) };
  const r = await store.save(seed);
  if (!r.ok) throw new Error(`seeding the store failed: ${JSON.stringify(r.issues)}`);
}

export interface StoreCheck {
  /** the loaded generation (pew_mqtt.keep_alive) */
  generation: number;
  /** invariant 1-3 violations, empty when the restart was clean */
  problems: string[];
  /** files other than the section files before the restart: the kill hit a save in progress */
  inFlight: boolean;
  /** warnings that are not repairs, i.e. the store completed an interrupted transaction */
  recoveries: number;
}

const describe = (e: LogEntry) => `${e.level}: ${e.msg}${e.fields ? ` ${JSON.stringify(e.fields)}` : ''}`;

/** Restarts the store over `configDir` as the daemon would and checks invariants 1-3. */
export async function checkStore(configDir: string): Promise<StoreCheck> {
  const sectionFiles = new Set(CONFIG_SECTIONS.map((d) => `${d.key}.json`));
  const extras = async () => (await readdir(configDir)).filter((n) => !sectionFiles.has(n));
  const inFlight = (await extras()).length > 0;

  const log = createLogger({ clock: systemClock, sink: null });
  const store = await ConfigStore.open({ dir: configDir, defs: CONFIG_SECTIONS, log });
  const problems: string[] = [];
  let recoveries = 0;
  for (const e of log.recent()) {
    if (e.level === 'error' || (e.level === 'warn' && /repair/i.test(e.msg))) problems.push(`restart logged ${describe(e)}`);
    else if (e.level === 'warn') recoveries++;
  }
  const left = await extras();
  if (left.length) problems.push(`left over after restart: ${left.join(', ')}`);

  const generation = store.get<{ keep_alive: number }>('pew_mqtt').keep_alive;
  const expected = expectedState(generation);
  for (const [key, value] of Object.entries(expected)) {
    const actual = store.get(key);
    if (!isDeepStrictEqual(actual, value)) problems.push(`${key} is not at the generation of pew_mqtt (${generation}): ${carried(key, actual)}`);
  }
  return { generation, problems, inFlight, recoveries };
}

/** The generation a section seems to carry, for a readable message. */
function carried(key: string, value: unknown): string {
  const v = value as { restart_by_time?: number; threads?: { port: number }[] };
  if (key === 'pew') return `restart_by_time ${v.restart_by_time} (g % 501)`;
  if (key === 'pew_redirect') return `port ${v.threads?.[0]?.port ?? 'none'} (20000 + g % 40000)`;
  return JSON.stringify(value).slice(0, 200);
}
