// Smaller hardening of the console's surfaces (issue 16 item 9): a backup header may only name the
// KDF parameters the unit writes; every request body is checked against its schema's shape
// (`[]` and `{}` are not an empty script or an empty request); no Referer leaves the console; one
// address cannot hold more than its share of open connections.

import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAGIC, PRODUCT, sealBackup } from '../../device/backup/format.ts';
import { MAX_CONNECTIONS_PER_ADDRESS } from '../../device/net/http-limits.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
});
afterAll(async () => {
  await d?.stop();
});

/** a protected backup whose header names other scrypt parameters (the header is re-written, so its tag no longer fits either) */
async function withKdf(kdf: { N: number; r: number; p: number }): Promise<Buffer> {
  const file = await sealBackup(
    { product: PRODUCT, format: 2, app: '1.5.0', created: new Date().toISOString(), hostname: 'unit' },
    Buffer.from('{}'),
    'Backup-Pass1!',
  );
  const len = file.readUInt32BE(MAGIC.length);
  const header = JSON.parse(file.subarray(12, 12 + len).toString('utf8'));
  Object.assign(header.kdf, kdf);
  const bytes = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(bytes.length);
  return Buffer.concat([MAGIC, size, bytes, file.subarray(12 + len)]);
}

async function restore(file: Buffer, password: string) {
  const res = await fetch(`${d.url}/config/restore`, {
    method: 'POST',
    body: new Uint8Array(file),
    headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/octet-stream', 'x-backup-password': password },
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('backup KDF parameters', () => {
  it('a header naming costlier (or cheaper) scrypt parameters than the unit writes is refused before any key is derived', async () => {
    for (const kdf of [
      { N: 1 << 17, r: 16, p: 4 },
      { N: 1 << 16, r: 8, p: 1 },
      { N: 1 << 15, r: 9, p: 1 },
      { N: 1 << 15, r: 8, p: 2 },
      { N: 1 << 10, r: 8, p: 1 },
    ]) {
      // the daemon runs in this process: its CPU time, not the wall clock (which a busy machine
      // stretches), shows that no key was derived (N = 2^17, r = 16, p = 4 alone is seconds of it)
      const cpu0 = process.cpuUsage();
      const r = await restore(await withKdf(kdf), 'Wrong-Pass1!');
      const cpu = process.cpuUsage(cpu0);
      expect(r.status, JSON.stringify(kdf)).toBe(400);
      expect(r.body.error, JSON.stringify(kdf)).toMatchObject({ code: 'restore_failed', params: { reason: 'damaged' } });
      expect((cpu.user + cpu.system) / 1000, JSON.stringify(kdf)).toBeLessThan(1000);
    }
    // the parameters the unit writes still reach the password check
    const own = await restore(await withKdf({ N: 1 << 15, r: 8, p: 1 }), 'Wrong-Pass1!');
    expect(own.body.error.code).toBe('backup_wrong_password');
  });
});

describe('bodies of the wrong shape', () => {
  it('writefile with [] or {} is refused and the active script stays', async () => {
    expect((await admin.post('/config/writefile', { content: 'KEEP THIS SCRIPT\n' })).status).toBe(200);
    for (const body of [[], {}, [{ content: 'x' }], { content: [] }]) {
      const r = await admin.post('/config/writefile', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    }
    expect((await admin.post('/config/writefile', [])).body.error.issues).toEqual([
      { section: 'script_file', path: '', code: 'type', params: { expected: 'object' } },
    ]);
    expect((await admin.post('/config/writefile', {})).body.error.issues).toEqual([{ section: 'script_file', path: 'content', code: 'required' }]);
    expect((await admin.get('/download/pew_script.cfg')).text).toBe('KEEP THIS SCRIPT\n');
  });

  it('get_backup, login and the other bodies read by schema refuse [] where an object belongs', async () => {
    const backup = await admin.post('/config/get_backup', []);
    expect(backup.status).toBe(400);
    expect(backup.body.error).toMatchObject({ code: 'invalid_input', issues: [{ path: '', code: 'type', params: { expected: 'object' } }] });
    expect((await admin.post('/config/get_backup', {})).status).toBe(200); // no password: a plain backup
    for (const path of ['/rest/api/v1/authentication', '/config/users/add', '/config/users/password']) {
      const r = await admin.post(path, []);
      expect(r.status, path).toBe(400);
      expect(r.body.error.issues[0], path).toMatchObject({ path: '', code: 'type' });
    }
  });
});

describe('response headers', () => {
  it('every answer, API and console files alike, carries Referrer-Policy: no-referrer', async () => {
    for (const path of ['/rest/api/v1/authentication', '/config/pew', '/', '/no-such-route']) {
      const r = await admin.get(path);
      expect(r.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });
});

describe('open connections per address', () => {
  const open = async (from: string): Promise<Socket> => {
    const s = connect({ host: '127.0.0.1', port: d.port, localAddress: from });
    s.on('error', () => undefined);
    await once(s, 'connect');
    return s;
  };
  const answer = async (s: Socket): Promise<string> => {
    const parts: Buffer[] = [];
    s.on('data', (b: Buffer) => parts.push(b));
    s.write('GET /rest/api/v1/authentication HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await Promise.race([once(s, 'close'), new Promise((r) => setTimeout(r, 10_000))]);
    return Buffer.concat(parts).toString('utf8');
  };

  it('one over the cap gets 429 too_many_connections; other addresses and, after a close, the same one go on', async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS_PER_ADDRESS; i++) held.push(await open('127.0.6.1'));
      const over = await answer(await open('127.0.6.1'));
      expect(over).toMatch(/^HTTP\/1\.1 429 /);
      expect(JSON.parse(over.slice(over.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
        code: 'too_many_connections',
        params: { max: MAX_CONNECTIONS_PER_ADDRESS },
      });
      expect(await answer(await open('127.0.6.2'))).toMatch(/^HTTP\/1\.1 401 /);
      held.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 200));
      expect(await answer(await open('127.0.6.1'))).toMatch(/^HTTP\/1\.1 401 /);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
