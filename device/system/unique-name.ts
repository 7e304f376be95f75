// The one rule for a file that must not replace another (docs/ftp.md "No file is replaced",
// docs/script.md): when `name` is taken, the file goes under `<base>_1.<ext>`, `<base>_2.<ext>` …,
// the first number not taken (`audit_log.csv` → `audit_log_1.csv`; `readme` → `readme_1`). Used by
// the FTP send for the name on the server and for the local name after the send, and by the
// script for a CSV file whose header changed. Names are compared without regard to case, so that a
// server or a USB stick that folds case never has one file replace another either.
import { readdir } from 'node:fs/promises';

/** numbers tried before giving up (a folder this full of one name is a fault, not a use) */
export const UNIQUE_MAX = 9999;

/** `name` with `_n` before its extension (the last dot not at the start). */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}_${n}${name.slice(dot)}` : `${name}_${n}`;
}

/** Is a name taken? Answered from a listing or by asking the server for each name. */
export type Taken = (name: string) => boolean | Promise<boolean>;

/** A `Taken` that also records the names given out since it was made. */
export type TakenNames = Taken & { add(name: string): void };

/** A listing's names, compared without regard to case; `add` records a name given out since. */
export interface NameSet {
  (name: string): boolean;
  add(name: string): void;
}

/** The names of a listing as a `Taken` that ignores case. */
export function takenIn(names: Iterable<string>): NameSet {
  const set = new Set<string>();
  for (const n of names) set.add(n.toLowerCase());
  return Object.assign((name: string) => set.has(name.toLowerCase()), { add: (name: string) => void set.add(name.toLowerCase()) });
}

/** `name` when it is free, else the first free numbered name; throws when all UNIQUE_MAX are taken. */
export async function uniqueName(name: string, taken: Taken): Promise<string> {
  if (!(await taken(name))) return name;
  for (let n = 1; n <= UNIQUE_MAX; n++) {
    const candidate = numberedName(name, n);
    if (!(await taken(candidate))) return candidate;
  }
  throw new Error(`${name}: ${UNIQUE_MAX} numbered names are taken already`);
}

/** The names of a local folder (every entry: a folder or link of the name is in the way too). */
export async function folderNames(folder: string): Promise<NameSet> {
  return takenIn(await readdir(folder));
}
