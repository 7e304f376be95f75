// Which files an FTP send takes and how they are renamed (device/ftp/local-files.ts; spec §3
// pew_ftpc local_dir/local_file, pew_script file_ext_replacement, §4 rename after a send).

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Volume } from '../../hw/types.ts';
import { pinTimeZone } from '../../test/support/time-zone.ts';
import { type HoldContext, heldBack, LocalFolderError, localDirOf, resolveLocalFolder, selectFiles, sentName } from './local-files.ts';

pinTimeZone('Europe/Berlin');

const at = (y: number, mo: number, d: number, h = 0, mi = 0): number => new Date(y, mo - 1, d, h, mi).getTime();
// the log files tank and flow are in pew_log, switched off (trigger 0)
const quiet = {
  enable_log: false,
  midnight_to_daybefore: false,
  log_def: [
    { name: 'tank', trigger: 0 },
    { name: 'flow', trigger: 0 },
  ],
} as unknown as HoldContext['log'];

describe('names', () => {
  it('the replacement extension replaces the last one, or is added', () => {
    expect(sentName('tank_20261120.csv', 'bak')).toBe('tank_20261120.bak');
    expect(sentName('tank_20261120.csv', '.sent')).toBe('tank_20261120.sent');
    expect(sentName('a.b.csv', 'bak')).toBe('a.b.bak');
    expect(sentName('readme', 'bak')).toBe('readme.bak');
    expect(sentName('_x.csv', '')).toBe('_x.bak'); // an empty field falls back to the default
  });

  it('local_dir: a volume and a folder on it; no volume named = internal; empty = the logger folder', () => {
    expect(localDirOf('usb/export', 0)).toEqual({ volume: 'usb', sub: 'export' });
    expect(localDirOf('temp', 0)).toEqual({ volume: 'temp', sub: '' });
    expect(localDirOf('data/out', 1)).toEqual({ volume: 'internal', sub: 'data/out' });
    expect(localDirOf('', 1)).toEqual({ volume: 'usb', sub: 'log' });
    expect(localDirOf('./internal//log/', 2)).toEqual({ volume: 'internal', sub: 'log' });
  });
});

describe('heldBack', () => {
  const names = ['tank_20261119.csv', 'tank_20261120.csv', 'tank_20261121.csv', 'flow_2026-W46.csv', 'notes.txt'];

  it('the newest file of a log file is held while its period holds now', () => {
    expect([...heldBack(names, { now: at(2026, 11, 21, 9), log: quiet })]).toEqual(['tank_20261121.csv']);
    // the week of flow_2026-W47 is now; W46 is over and nobody logs it
    expect([...heldBack([...names, 'flow_2026-W47.csv'], { now: at(2026, 11, 21, 9), log: quiet })].sort()).toEqual(['flow_2026-W47.csv', 'tank_20261121.csv']);
  });

  it('the newest file is held while its log file is logging, even after its period (records may still be cached)', () => {
    const log = {
      enable_log: true,
      midnight_to_daybefore: false,
      log_def: [
        { name: 'tank', trigger: 1 },
        { name: 'flow', trigger: 0 },
      ],
    } as never;
    expect([...heldBack(names, { now: at(2026, 11, 22, 0, 5), log })]).toEqual(['tank_20261121.csv']);
    expect([...heldBack(names, { now: at(2026, 11, 22, 0, 5), log: quiet })]).toEqual([]);
  });

  it('a name that only looks like a log file of no log file of pew_log is not held (a script writes audit_%Y%m%d.csv)', () => {
    const none = { enable_log: true, midnight_to_daybefore: false, log_def: [] };
    expect([...heldBack(names, { now: at(2026, 11, 21, 9), log: none })]).toEqual([]);
    expect([...heldBack([...names, 'audit_20261121.csv'], { now: at(2026, 11, 21, 9), log: quiet })]).toEqual(['tank_20261121.csv']);
  });

  it('midnight_to_daybefore: at 00:00:00 the day before is still the current file', () => {
    const log = { ...quiet, midnight_to_daybefore: true };
    expect([...heldBack(names, { now: at(2026, 11, 22, 0, 0), log })]).toEqual(['tank_20261121.csv']);
    expect([...heldBack(names, { now: at(2026, 11, 22, 0, 0), log: quiet })]).toEqual([]);
  });
});

describe('the local folder and the selection', () => {
  let base: string;
  let volumes: Volume[];
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'ftp-local-'));
    volumes = (['internal', 'usb', 'temp'] as const).map((id) => ({ id, path: join(base, id), mounted: id !== 'temp', totalBytes: 0, freeBytes: 0 }));
    await mkdir(join(base, 'internal', 'log'), { recursive: true });
    await mkdir(join(base, 'usb'), { recursive: true });
    await mkdir(join(base, 'outside'), { recursive: true });
    await symlink(join(base, 'outside'), join(base, 'internal', 'escape'));
    for (const n of ['tank_20261120.csv', 'tank_20261119.bak', 'tank_20261121.csv', 'pump.csv', '.tank.tmp'])
      await writeFile(join(base, 'internal', 'log', n), n);
    await mkdir(join(base, 'internal', 'log', 'tank_dir'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('resolves inside a mounted volume and refuses the rest with a clear reason', async () => {
    expect((await resolveLocalFolder({ local_dir: '' }, { storage: 0 }, volumes)).shown).toBe('internal/log');
    await expect(resolveLocalFolder({ local_dir: 'temp/x' }, { storage: 0 }, volumes)).rejects.toThrow(/temp volume is not mounted/);
    await expect(resolveLocalFolder({ local_dir: 'usb/none' }, { storage: 0 }, volumes)).rejects.toThrow(/usb\/none does not exist/);
    await expect(resolveLocalFolder({ local_dir: 'internal/escape' }, { storage: 0 }, volumes)).rejects.toThrow(LocalFolderError);
    await expect(resolveLocalFolder({ local_dir: 'internal/escape' }, { storage: 0 }, volumes)).rejects.toThrow(/leaves the volume/);
  });

  it('takes plain files with the prefix, not the renamed ones, not hidden ones or folders, and holds the current log file', async () => {
    const folder = join(base, 'internal', 'log');
    const s = await selectFiles(folder, { local_file: 'tank' }, { file_ext_replacement: 'bak' }, { now: at(2026, 11, 21, 12), log: quiet });
    expect(s.send.map((f) => f.name)).toEqual(['tank_20261120.csv']);
    expect(s.held).toEqual(['tank_20261121.csv']);
    expect(s.sent.map((f) => f.name)).toEqual(['tank_20261119.bak']);
    const all = await selectFiles(folder, { local_file: '' }, { file_ext_replacement: 'bak' }, { now: at(2026, 11, 21, 12), log: quiet });
    expect(all.send.map((f) => f.name)).toEqual(['pump.csv', 'tank_20261120.csv']);
  });
});
