// What the /log page keeps besides the section: which log file and which data point are selected,
// which points are ticked for deletion; and how a new list of log files goes into pew_log's
// temporary copy (the server's issues name list positions, so those of log_def are dropped).
import { batch, signal } from '@preact/signals';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import { section, setField } from '../state/sections.ts';

export const KEY = 'pew_log';

export const selectedFile = signal(0);
export const selectedPoint = signal<number | null>(null);
export const checkedPoints = signal<ReadonlySet<number>>(new Set());

/** The log files of the temporary copy (what the page shows and edits). */
export function logFiles(): LogFile[] {
  const v = section(KEY).temp.value.log_def;
  return Array.isArray(v) ? (v as LogFile[]) : [];
}

/** The selected log file's index, kept inside the list. */
export const fileIndex = (count: number): number => Math.max(0, Math.min(selectedFile.value, count - 1));

export function selectFile(index: number): void {
  batch(() => {
    selectedFile.value = index;
    selectedPoint.value = null;
    checkedPoints.value = new Set();
  });
}

/** Stores a new list of log files in the temporary copy. */
export function setLogFiles(files: LogFile[]): void {
  batch(() => {
    setField(KEY, 'log_def', files);
    const s = section(KEY);
    s.serverIssues.value = s.serverIssues.value.filter((i) => !i.path.startsWith('log_def'));
  });
}
