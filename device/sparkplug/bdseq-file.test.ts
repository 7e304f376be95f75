import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bdSeqFile, readBdSeq, sparkplugClientId, writeBdSeq } from './bdseq-file.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bdseq-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bdSeq kept on storage', () => {
  it('none before the first CONNECT; then the value written, its folder made, no temp file left', async () => {
    const file = bdSeqFile(dir);
    expect(await readBdSeq(file)).toBeUndefined();
    await writeBdSeq(file, 0);
    expect(await readBdSeq(file)).toBe(0);
    await writeBdSeq(file, 255);
    expect(await readBdSeq(file)).toBe(255);
    expect(await readdir(dirname(file))).toEqual(['bdseq']);
  });

  it('a file that holds no bdSeq counts as none (the first CONNECT is then 0)', async () => {
    const file = join(dir, 'bdseq');
    for (const text of ['', 'x', '256', '-1', '1.5', '99999']) {
      await writeFile(file, text);
      expect(await readBdSeq(file), text).toBeUndefined();
    }
  });
});

describe('the edge node client id', () => {
  it('the unit client id with -spb, at most 23 characters (MQTT 3.1.1)', () => {
    expect(sparkplugClientId('pew-0123456789ab')).toBe('pew-0123456789ab-spb');
    expect(sparkplugClientId('a'.repeat(23))).toHaveLength(23);
  });
});
