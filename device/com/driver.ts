// What a link can do with a PLC, whatever the protocol: read and write word areas and bit areas,
// identify the CPU (the PLC test) and probe that it answers. A driver turns each operation into
// dialogs and hands every dialog to `run`, which the link backs with its transaction queue (one
// dialog = one transaction, so a long read shares the wire fairly and each part is retried alone).
import type { BitArea, WordArea } from '../protocol/index.ts';
import { type Dialog, PlcError } from './dialog.ts';

export type Run = <T>(make: () => Dialog<T>, idempotent: boolean) => Promise<T>;

export interface PlcIdentity {
  cpu: { name: string; family: string };
  /** a finer model name where the status read tells one (FP7 CPS41E …) */
  model?: string;
  version?: string;
  mode?: 'RUN' | 'PROG';
  /** every answer of the identification, printable */
  raw: string;
  /** why the CPU type stays unknown, when it does */
  note?: string;
}

export interface PlcDriver {
  readWords(run: Run, area: WordArea, start: number, count: number): Promise<number[]>;
  writeWords(run: Run, area: WordArea, start: number, words: readonly number[]): Promise<void>;
  readBits(run: Run, area: BitArea, index: number, count: number): Promise<boolean[]>;
  writeBits(run: Run, area: BitArea, index: number, values: readonly boolean[]): Promise<void>;
  identify(run: Run): Promise<PlcIdentity>;
  /** the lightest exchange that proves the PLC answers (link up/down, autobaud) */
  probe(run: Run): Promise<void>;
}

/** A request the protocol or the area cannot express: refused before anything goes on the wire. */
export const unsupported = (message: string): PlcError => new PlcError('plc_error', message);

/** Runs dialogs one after another, remembering every answer for the PLC test's raw box. */
export function recordingRun(run: Run): { run: Run; raw(): string } {
  const answers: string[] = [];
  return {
    run: async <T>(make: () => Dialog<T>, idempotent: boolean): Promise<T> => {
      let last: Dialog<T> | undefined;
      try {
        return await run(() => (last = make()), idempotent);
      } finally {
        const r = last?.raw();
        if (r) answers.push(r);
      }
    },
    raw: () => answers.join(' '),
  };
}

/** The bits `index`…`index+count-1` of words read from word `firstWord` on. */
export function bitsOfWords(words: readonly number[], firstWord: number, index: number, count: number): boolean[] {
  return Array.from({ length: count }, (_, i) => {
    const b = index + i;
    return (((words[(b >> 4) - firstWord] ?? 0) >> (b & 15)) & 1) === 1;
  });
}
