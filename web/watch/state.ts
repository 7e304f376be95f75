// What the /watch page holds while it is open: the user's list as saved and as edited, its problems
// (the daemon's schema and rules, and what the daemon refused at the last save), the entry being
// edited, the last values read with each entry's trend. The page starts it afresh on every visit.
import { batch, computed, signal } from '@preact/signals';
import type { Issue } from '../../device/model/issues.ts';
import type { WatchEntry, WatchValues } from '../../device/model/watch.ts';
import type { ApiIssue } from '../api/client.ts';
import { jsonEqual, setPath } from '../state/equal.ts';
import { isNumeric, trendValue } from './format.ts';
import { listIssues } from './list.ts';
import { Trends, trendKey } from './trends.ts';

/** the list as the daemon keeps it; null until it is loaded */
export const saved = signal<WatchEntry[] | null>(null);
/** the list being edited, values as typed (`entries.<n>.<field>` paths, as the daemon's issues name them) */
export const draft = signal<{ entries: unknown[] }>({ entries: [] });
export const changed = computed(() => saved.value !== null && !jsonEqual(saved.value, draft.value.entries));
export const issues = computed<Issue[]>(() => listIssues(draft.value.entries));
/** what the daemon refused at the last save, until the field is changed */
export const serverIssues = signal<ApiIssue[]>([]);
/** the entry shown in the editor */
export const selected = signal<number | null>(null);
/** the last values read (of the saved list); null before the first and after a failed read */
export const reading = signal<WatchValues | null>(null);
export const readFailed = signal(false);
export const trends = new Trends();
/** counts the reads taken into the trends (the sparklines draw again when it moves) */
export const readCount = signal(0);

/** An entry being edited: every field of an entry, each as typed (a number field may hold text the schema refuses). */
export type DraftEntry = Record<keyof WatchEntry, unknown>;
export const entries = () => draft.value.entries as DraftEntry[];

/** The first problem at exactly `path`: the list's own, then the daemon's. */
export const problemAt = (path: string) => issues.value.find((i) => i.path === path) ?? serverIssues.value.find((i) => i.path === path);

/** Starts the page with the list the daemon has. */
export function accept(list: WatchEntry[]): void {
  batch(() => {
    saved.value = list;
    draft.value = { entries: list };
    serverIssues.value = [];
    reading.value = null;
    readFailed.value = false;
    if (selected.value !== null && selected.value >= list.length) selected.value = list.length ? list.length - 1 : null;
  });
  trends.keep(list.map(trendKey));
}

export function setField(path: string, value: unknown): void {
  batch(() => {
    draft.value = setPath(draft.value, path, value);
    if (serverIssues.value.length) serverIssues.value = serverIssues.value.filter((i) => i.path !== path);
  });
}

export function setEntries(list: unknown[]): void {
  batch(() => {
    draft.value = { entries: list };
    serverIssues.value = [];
  });
}

/** A read that failed: no values shown (the trends keep what they have). */
export function readFailedNow(): void {
  batch(() => {
    reading.value = null;
    readFailed.value = true;
  });
}

/** The values read for the saved list: shown, and each numeric entry's added to its trend. */
export function took(values: WatchValues): void {
  const list = saved.value ?? [];
  list.forEach((e, i) => {
    const r = values.values[i];
    if (r && isNumeric(e)) trends.add(trendKey(e), values.at, r.failure ? null : trendValue(r));
  });
  batch(() => {
    reading.value = values;
    readFailed.value = false;
    readCount.value++;
  });
}
