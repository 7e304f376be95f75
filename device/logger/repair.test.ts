import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvStore } from './csv-store.ts';
import { type RepairHandle, repairOpenFile, repairTail, wholeLinesLength } from './repair.ts';
import { LOG_FOLDER } from './types.ts';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'repair-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** An in-memory file whose reads return at most `maxRead` bytes, counting truncations and syncs. */
function memoryFile(content: Uint8Array, maxRead: number) {
  let data = content.slice();
  const calls = { truncate: 0, datasync: 0, close: 0 };
  const fh: RepairHandle = {
    async read(buffer, offset, length, position) {
      const n = Math.max(0, Math.min(length, maxRead, data.length - position));
      buffer.set(data.subarray(position, position + n), offset);
      return { bytesRead: n };
    },
    async stat() {
      return { size: data.length };
    },
    async truncate(length) {
      calls.truncate++;
      data = data.slice(0, length);
    },
    async datasync() {
      calls.datasync++;
    },
    async close() {
      calls.close++;
    },
  };
  return { fh, calls, data: () => data };
}

describe('wholeLinesLength', () => {
  it('is the length up to and including the last "\\n"', () => {
    expect(wholeLinesLength(bytes(''))).toBe(0);
    expect(wholeLinesLength(bytes('abc'))).toBe(0);
    expect(wholeLinesLength(bytes('a\r\n'))).toBe(3);
    expect(wholeLinesLength(bytes('a\r\nb\r'))).toBe(3);
    expect(wholeLinesLength(bytes('a\r\nb\r\n'))).toBe(6);
  });

  it('property: the prefix ends in "\\n" (or is empty) and the rest holds no "\\n"', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const n = wholeLinesLength(b);
        expect(n === 0 || b[n - 1] === 0x0a).toBe(true);
        expect(b.subarray(n).includes(0x0a)).toBe(false);
      }),
    );
  });
});

describe('repairOpenFile', () => {
  it('property: any content, any read size: cut to the whole lines, synced only when cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom('\n', '\r\n', '\r', '"', ',', 'ä'), fc.string({ maxLength: 12 })), { maxLength: 40 }),
        fc.integer({ min: 1, max: 17 }),
        async (parts, maxRead) => {
          const content = bytes(parts.join(''));
          const f = memoryFile(content, maxRead);
          const r = await repairOpenFile(f.fh);
          const keep = wholeLinesLength(content);
          expect(f.data()).toEqual(content.subarray(0, keep));
          expect(r).toEqual({ removedBytes: content.length - keep, size: keep });
          expect(f.calls.truncate).toBe(keep === content.length ? 0 : 1);
          expect(f.calls.datasync).toBe(f.calls.truncate);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the last "\\n" across read chunks of a large file (64 KiB chunks)', async () => {
    const head = `${'x'.repeat(100_000)}\r\n`;
    const torn = 'y'.repeat(150_000);
    const f = memoryFile(bytes(head + torn), 1 << 20);
    expect(await repairOpenFile(f.fh)).toEqual({ removedBytes: 150_000, size: head.length });
    expect(f.data().length).toBe(head.length);
  });

  it('a large file without any "\\n" is emptied', async () => {
    const f = memoryFile(bytes('z'.repeat(200_000)), 1 << 20);
    expect(await repairOpenFile(f.fh)).toEqual({ removedBytes: 200_000, size: 0 });
  });
});

describe('repairTail on real files', () => {
  it('a missing file needs no repair; other errors are passed on', async () => {
    const dir = await tempDir();
    expect(await repairTail(join(dir, 'none.csv'))).toEqual({ removedBytes: 0, size: 0 });
    const eio = Object.assign(new Error('io'), { code: 'EIO' });
    await expect(repairTail(join(dir, 'x.csv'), { open: () => Promise.reject(eio) })).rejects.toBe(eio);
  });

  it('a whole file is left byte for byte; a torn one is cut to its last "\\n"', async () => {
    const dir = await tempDir();
    const whole = join(dir, 'whole.csv');
    await writeFile(whole, 'Date,Time,a\r\n2024/01/01,00:00:00,1\r\n');
    expect(await repairTail(whole)).toEqual({ removedBytes: 0, size: 36 });
    expect(await readFile(whole, 'utf8')).toBe('Date,Time,a\r\n2024/01/01,00:00:00,1\r\n');
    const torn = join(dir, 'torn.csv');
    await writeFile(torn, 'Date,Time,a\r\n2024/01/01,00:00:00,1\r');
    expect(await repairTail(torn)).toEqual({ removedBytes: 22, size: 13 });
    expect(await readFile(torn, 'utf8')).toBe('Date,Time,a\r\n');
  });

  it('LOG-1: truncated at EVERY byte offset, the repair leaves the whole lines and an append after it leaves only whole lines', async () => {
    const dir = await tempDir();
    const header = ['Date;Time;level;temp;state', ';;m;°C;', ';;COM1 DT100;COM1 DT102;INTERNAL DT5'];
    const records = [
      '2024/03/01;12:00:00;1,50;-3,25;"run;ok"',
      '2024/03/01;12:00:10;1,75;;"say ""hi"""',
      '2024/03/01;12:00:20;2,00;-2,50;Größe',
      '2024/03/01;12:00:30;;;',
    ];
    const full = bytes([...header, ...records].map((l) => `${l}\r\n`).join(''));
    const headerBytes = bytes(header.map((l) => `${l}\r\n`).join(''));
    const more = ['2024/03/01;12:00:40;9,99;0,00;next', '2024/03/01;12:00:50;8,88;1,00;last'];
    const volume = join(dir, 'vol');
    const logDir = join(volume, LOG_FOLDER);
    const file = join(logDir, 'tank_20240301.csv');
    let cuts = 0;
    for (let k = 0; k <= full.length; k++) {
      await rm(volume, { recursive: true, force: true });
      await mkdir(logDir, { recursive: true });
      await writeFile(file, full.subarray(0, k));
      const r = await repairTail(file);
      const keep = wholeLinesLength(full.subarray(0, k));
      expect(r.removedBytes).toBe(k - keep);
      const repaired = await readFile(file);
      expect(repaired.equals(Buffer.from(full.subarray(0, keep)))).toBe(true);
      if (r.removedBytes > 0) cuts++;

      // a new process lifetime appends: to the repaired file, and to a torn copy it repairs itself
      const torn = 'tank_20240302.csv';
      await writeFile(join(logDir, torn), full.subarray(0, k));
      const store = new CsvStore({ volumes: async () => [{ id: 'internal', path: volume, mounted: true, totalBytes: 1 << 30, freeBytes: 1 << 29 }] });
      const appender = store.appender('internal');
      expect((await appender.append('tank_20240301.csv', header, more)).state).toBe('ok');
      expect((await appender.append(torn, header, more)).state).toBe('ok');
      await store.close();
      // a header cut inside is written again whole; otherwise the kept lines stay as they are
      const prefix = keep < headerBytes.length ? headerBytes : full.subarray(0, keep);
      const expected = text(prefix) + more.map((l) => `${l}\r\n`).join('');
      for (const name of ['tank_20240301.csv', torn]) {
        const after = await readFile(join(logDir, name));
        expect(after.at(-1)).toBe(0x0a);
        expect(text(after), `${name} cut at ${k}`).toBe(expected);
        for (const line of text(after).split('\r\n').slice(0, -1)) expect(line.includes('\n') || line.includes('\r')).toBe(false);
      }
    }
    expect(cuts).toBe(full.length - (header.length + records.length)); // every offset not at a line end was torn
  }, 60_000); // hundreds of files written and fdatasynced: seconds on a busy 2-core machine
});
