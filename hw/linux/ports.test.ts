import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownSocketInodes, parseProcNetTcp } from './ports.ts';

const TCP = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 15432 1 0000000000000000 100 0 0 10 0',
  '   1: 0100007F:0CEA 00000000:0000 0a 00000000:00000000 00:00000000 00000000   102        0 17001 1 0000000000000000 100 0 0 10 0',
  '   2: 0A00A8C0:0016 0100A8C0:D431 01 00000000:00000000 02:0009B6E5 00000000     0        0 18222 4 0000000000000000 20 4 29 10 -1',
  '   3: 0A00A8C0:1F90 0100A8C0:D432 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000',
  '',
].join('\n');

describe('parseProcNetTcp', () => {
  it('keeps LISTEN (0A, either case) sockets with their port and inode', () => {
    expect(parseProcNetTcp(TCP)).toEqual([
      { port: 22, inode: '15432' },
      { port: 3306, inode: '17001' },
    ]);
  });

  it('reads IPv6 addresses and ignores a header-only or malformed table', () => {
    const tcp6 =
      '  sl  local_address remote_address st tx_queue rx_queue tr tm->when retrnsmt uid timeout inode\n' +
      '   0: 00000000000000000000000001000000:01BB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 2001 1\n' +
      '   1: garbage\n';
    expect(parseProcNetTcp(tcp6)).toEqual([{ port: 443, inode: '2001' }]);
    expect(parseProcNetTcp(TCP.split('\n')[0]!)).toEqual([]);
  });
});

describe('ownSocketInodes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hw-fd-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('collects socket:[inode] links and skips other descriptors', async () => {
    await mkdir(path.join(dir, 'fd'));
    await symlink('socket:[777]', path.join(dir, 'fd', '3'));
    await symlink('/dev/null', path.join(dir, 'fd', '4'));
    await symlink('pipe:[888]', path.join(dir, 'fd', '5'));
    await symlink('socket:[999]', path.join(dir, 'fd', '6'));
    expect([...(await ownSocketInodes(path.join(dir, 'fd')))].sort()).toEqual(['777', '999']);
    expect(await ownSocketInodes(path.join(dir, 'missing'))).toEqual(new Set());
  });
});
