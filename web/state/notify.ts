// Notifications (spec §4): info green, warning orange, error red, at the top for 5 s with a
// progress bar; the saved notice lasts 3000 ms (§9).
import { signal } from '@preact/signals';

export type NoticeKind = 'info' | 'warning' | 'error';
export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  ms: number;
}

export const NOTICE_MS = 5000; // spec §4
export const SAVED_MS = 3000; // spec §9: saved notice

export const notices = signal<Notice[]>([]);
let next = 1;

export function notify(kind: NoticeKind, text: string, ms = NOTICE_MS): number {
  const id = next++;
  notices.value = [...notices.value.filter((n) => n.text !== text), { id, kind, text, ms }];
  setTimeout(() => dismiss(id), ms);
  return id;
}

export function dismiss(id: number): void {
  notices.value = notices.value.filter((n) => n.id !== id);
}
