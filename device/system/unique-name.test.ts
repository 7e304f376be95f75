// The one rule for a file that must not replace another (unique-name.ts): its own name when free,
// else the first free numbered name; names compared without regard to case.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderNames, numberedName, takenIn, UNIQUE_MAX, uniqueName } from './unique-name.ts';

describe('numberedName', () => {
  it('puts the number before the last extension, or at the end of a name without one', () => {
    expect(numberedName('audit_log.csv', 1)).toBe('audit_log_1.csv');
    expect(numberedName('a.b.csv', 12)).toBe('a.b_12.csv');
    expect(numberedName('readme', 2)).toBe('readme_2');
    expect(numberedName('.hidden', 1)).toBe('.hidden_1');
  });
});

describe('uniqueName', () => {
  it('keeps a free name as it is', async () => {
    expect(await uniqueName('audit_log.csv', takenIn(['other.csv']))).toBe('audit_log.csv');
  });

  it('gives a taken name the first free number, and never one that is taken', async () => {
    expect(await uniqueName('audit_log.csv', takenIn(['audit_log.csv']))).toBe('audit_log_1.csv');
    expect(await uniqueName('audit_log.csv', takenIn(['audit_log.csv', 'audit_log_1.csv', 'audit_log_3.csv']))).toBe('audit_log_2.csv');
    expect(await uniqueName('audit_log.bak', takenIn(['audit_log.bak', 'audit_log_1.csv']))).toBe('audit_log_1.bak');
  });

  it('compares without regard to case (a server or a stick that folds case)', async () => {
    expect(await uniqueName('Audit.csv', takenIn(['AUDIT.CSV', 'audit_1.csv']))).toBe('Audit_2.csv');
  });

  it('records the names given out since the listing', async () => {
    const taken = takenIn(['a.csv']);
    const first = await uniqueName('a.csv', taken);
    taken.add(first);
    expect([first, await uniqueName('a.csv', taken)]).toEqual(['a_1.csv', 'a_2.csv']);
  });

  it('asks an asynchronous question name by name, and gives up past UNIQUE_MAX', async () => {
    const asked: string[] = [];
    const server = async (n: string) => (asked.push(n), n !== 'x_2.csv');
    expect(await uniqueName('x.csv', server)).toBe('x_2.csv');
    expect(asked).toEqual(['x.csv', 'x_1.csv', 'x_2.csv']);
    await expect(uniqueName('x.csv', () => true)).rejects.toThrow(`x.csv: ${UNIQUE_MAX} numbered names are taken already`);
  });

  it('a local folder: every entry is in the way, files and folders alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'unique-name-'));
    try {
      await writeFile(join(dir, 'tank.bak'), '');
      await mkdir(join(dir, 'tank_1.bak'));
      expect(await uniqueName('tank.bak', await folderNames(dir))).toBe('tank_2.bak');
      expect(await uniqueName('pump.bak', await folderNames(dir))).toBe('pump.bak');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
