// Tolerant readers for system files: the system view must never fail because a file is missing
// or unreadable on a particular image, so every reader returns undefined instead of throwing.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** `abs` inside `root`, so that tests can point every system path at a fake tree. */
export const rooted = (root: string, abs: string): string => path.join(root, abs);

export async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether the path exists (following links: a dangling link does not count). */
export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

export const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
