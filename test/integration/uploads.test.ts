// Uploads and certificates over a real socket (spec §5 certificate names and extensions, file
// names; §7 upload, get_certs, delete_cert; §8; security.md VAL-1 caps while streaming, DL-1):
// every kind stored under its name, names and extensions refused, oversize bodies refused (declared
// and streamed) with nothing left on disk, certificates parsed with subject and expiry, invalid
// PEM/DER and keys refused without storing, delete_cert, and the user role refused on writes.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX } from '../../device/model/uploads.ts';
import { type Client, FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
let user: Client;
let work: string;
const clock = new FakeClock(Date.now());
const pem: Record<string, Buffer> = {};

interface Answer {
  status: number;
  body: any;
  /** the connection broke before an answer came (a refused body still being sent) */
  reset?: boolean;
}

/**
 * POSTs `chunks` as the raw body of /config/upload?<query>: with a Content-Length when `declare`,
 * else chunked, one chunk at a time as the socket drains (a streamed upload).
 */
function upload(c: Client, query: string, chunks: Buffer[] | Buffer, declare = true): Promise<Answer> {
  const parts = Array.isArray(chunks) ? chunks : [chunks];
  const url = new URL(c.base);
  const headers: Record<string, string> = { cookie: c.cookie, 'x-csrf-token': c.csrf, 'content-type': 'application/octet-stream' };
  if (declare) headers['content-length'] = String(parts.reduce((n, p) => n + p.length, 0));
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => {
      if (!settled) {
        settled = true;
        resolve(a);
      }
    };
    // a connection of its own (agent: false): a kept-alive one that the server closes as this
    // request starts is reset, which a busy machine made happen
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: `/config/upload?${query}`, headers, agent: false }, (res) => {
      const got: Buffer[] = [];
      res.on('data', (b: Buffer) => got.push(b));
      res.on('end', () => {
        const text = Buffer.concat(got).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        done({ status: res.statusCode ?? 0, body });
      });
      res.on('error', () => done({ status: res.statusCode ?? 0, body: undefined, reset: true }));
    });
    req.on('error', () => done({ status: 0, body: undefined, reset: true }));
    let i = 0;
    const pump = () => {
      while (i < parts.length) {
        if (req.destroyed) return;
        if (!req.write(parts[i++]!)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** Every entry of a folder, hidden temp files included ([] when the folder is missing). */
const entries = (dir: string) =>
  readdir(dir).then(
    (n) => n.sort(),
    () => [] as string[],
  );
const certDir = (section: string) => join(d.dataDir, 'certs', section);

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: work, stdio: 'ignore' });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'uploads-test-'));
  // generated here, valid for two days: nothing that looks like a real key is kept anywhere
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Plant CA/O=Example Works',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=unit-7', '-keyout', 'client.key', '-out', 'client.csr');
  openssl('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-out', 'client.pem');
  openssl('x509', '-in', 'ca.pem', '-outform', 'DER', '-out', 'ca.der');
  openssl('pkey', '-in', 'client.key', '-aes256', '-passout', 'pass:Secret-1', '-out', 'enc.key');
  for (const f of ['ca.pem', 'ca.key', 'client.csr', 'client.pem', 'client.key', 'ca.der', 'enc.key']) pem[f] = await readFile(join(work, f));
  d = await startTestDaemon({ clock });
  admin = await d.admin();
  user = await d.user();
}, 60_000);
afterAll(async () => {
  await d?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('certificates', () => {
  it('a PEM certificate is stored byte-exact and listed with subject, issuer and validity', async () => {
    const r = await upload(admin, 'kind=cert&section=pew_mqtt&name=ca.pem', pem['ca.pem']!);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'cert',
      section: 'pew_mqtt',
      name: 'ca.pem',
      type: 'certificate',
      subject: 'CN=Plant CA, O=Example Works',
      count: 1,
      expired: false,
    });
    expect(await readFile(join(certDir('pew_mqtt'), 'ca.pem'))).toEqual(pem['ca.pem']);
    const listed = await user.get('/config/get_certs?section=pew_mqtt');
    expect(listed.status).toBe(200);
    expect(listed.body.certs).toHaveLength(1);
    const c = listed.body.certs[0];
    expect(c).toMatchObject({
      section: 'pew_mqtt',
      name: 'ca.pem',
      type: 'certificate',
      subject: 'CN=Plant CA, O=Example Works',
      issuer: 'CN=Plant CA, O=Example Works',
      expired: false,
    });
    const days = (Date.parse(c.validTo) - Date.parse(c.validFrom)) / 86_400_000;
    expect(days).toBeCloseTo(2, 1);
    expect(Math.abs(Date.parse(c.validFrom) - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('a client certificate signed by the CA names its issuer; a chain counts its certificates', async () => {
    const r = await upload(admin, 'kind=cert&section=pew_ftpc&name=client.crt', Buffer.concat([pem['client.pem']!, pem['ca.pem']!]));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ subject: 'CN=unit-7', issuer: 'CN=Plant CA, O=Example Works', count: 2 });
  });

  it('DER certificates are accepted for the TLS parts only (spec §5: TLS also .der and .cer)', async () => {
    const tls = await upload(admin, 'kind=cert&section=pew_tls_client&name=ca.der', pem['ca.der']!);
    expect(tls.status, JSON.stringify(tls.body)).toBe(200);
    expect(tls.body.subject).toBe('CN=Plant CA, O=Example Works');
    const mqtt = await upload(admin, 'kind=cert&section=pew_mqtt&name=ca.der', pem['ca.der']!);
    expect(mqtt.status).toBe(400);
    expect(mqtt.body.error.issues).toEqual([{ path: 'name', code: 'file_extension', params: { allowed: ['.crt', '.csr', '.pem'] } }]);
    // DER content under a PEM name is still a certificate
    expect((await upload(admin, 'kind=cert&section=pew_tls_server&name=server.cer', pem['ca.der']!)).status).toBe(200);
  });

  it('a key is stored and listed by its type only, never its content', async () => {
    const r = await upload(admin, 'kind=cert&section=pew_mqtt&name=key.key', pem['client.key']!);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ kind: 'cert', section: 'pew_mqtt', name: 'key.key', size: pem['client.key']!.length, type: 'key', keyType: 'rsa' });
    const listed = await admin.get('/config/get_certs?section=pew_mqtt');
    expect(listed.body.certs.find((x: { name: string }) => x.name === 'key.key')).toEqual({
      section: 'pew_mqtt',
      name: 'key.key',
      size: pem['client.key']!.length,
      type: 'key',
      keyType: 'rsa',
    });
    const body = pem['client.key']!.toString().split('\n')[1]!;
    expect(listed.text).not.toContain(body.slice(0, 20));
    // a DER (PKCS#8) key under .pem as well
    const der = execFileSync('openssl', ['pkey', '-in', join(work, 'ca.key'), '-outform', 'DER']);
    expect((await upload(admin, 'kind=cert&section=pew_tls_client&name=key.pem', der)).body).toMatchObject({ type: 'key', keyType: 'ec' });
  });

  it('a certificate request is accepted as .csr and listed as a request', async () => {
    const r = await upload(admin, 'kind=cert&section=pew_httpc&name=client.csr', pem['client.csr']!);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.type).toBe('request');
  });

  it('invalid PEM and DER, a key as a certificate, a certificate or an encrypted key as a key: refused, nothing stored, the stored file kept', async () => {
    const before = await readFile(join(certDir('pew_mqtt'), 'ca.pem'));
    const cases: [string, Buffer, string][] = [
      [
        'kind=cert&section=pew_mqtt&name=ca.pem',
        Buffer.from('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n'),
        'invalid_certificate',
      ],
      ['kind=cert&section=pew_mqtt&name=ca.pem', Buffer.from('hello'), 'invalid_certificate'],
      ['kind=cert&section=pew_tls_client&name=ca.der', randomBytes(700), 'invalid_certificate'],
      ['kind=cert&section=pew_tls_client&name=ca.der', pem['ca.der']!.subarray(0, 200), 'invalid_certificate'],
      ['kind=cert&section=pew_mqtt&name=ca.pem', pem['ca.key']!, 'invalid_certificate'],
      ['kind=cert&section=pew_mqtt&name=client.crt', pem['client.csr']!, 'invalid_certificate'],
      ['kind=cert&section=pew_mqtt&name=key.pem', pem['ca.pem']!, 'invalid_key'],
      ['kind=cert&section=pew_mqtt&name=key.key', pem['enc.key']!, 'invalid_key'],
      ['kind=cert&section=pew_mqtt&name=key.key', Buffer.alloc(0), 'invalid_key'],
    ];
    for (const [query, bytes, code] of cases) {
      const r = await upload(admin, query, bytes);
      expect(r.status, query).toBe(400);
      expect(r.body.error.code, query).toBe(code);
    }
    expect(await readFile(join(certDir('pew_mqtt'), 'ca.pem'))).toEqual(before);
    expect(await readFile(join(certDir('pew_mqtt'), 'key.key'))).toEqual(pem['client.key']); // the earlier valid key, untouched
    for (const s of ['pew_mqtt', 'pew_tls_client']) expect((await entries(certDir(s))).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(await entries(certDir('pew_tls_client'))).toEqual(['ca.der', 'key.pem']);
  });

  it('names, extensions, sections and kinds outside spec §5 are refused before the body is read', async () => {
    const refused: [string, string][] = [
      ['kind=cert&section=pew_mqtt&name=ca.txt', 'name'],
      ['kind=cert&section=pew_mqtt&name=server.pem', 'name'], // MQTT has no server certificate
      ['kind=cert&section=pew_mqtt&name=key.crt', 'name'],
      ['kind=cert&section=pew_mqtt&name=../ca.pem', 'name'],
      ['kind=cert&section=pew_mqtt&name=ca.pem%00', 'name'],
      ['kind=cert&section=pew_mqtt&name=sub%2Fca.pem', 'name'],
      ['kind=cert&section=pew_mqtt&name=', 'name'],
      ['kind=cert&section=../pew_mqtt&name=ca.pem', 'section'],
      ['kind=cert&section=pew_tls&name=ca.pem', 'section'],
      ['kind=cert&name=ca.pem', 'section'],
      ['kind=webfile&name=..', 'name'],
      ['kind=webfile&name=.htaccess', 'name'],
      ['kind=webfile&name=a%2Fb.html', 'name'],
      ['kind=webfile&name=a%5Cb.html', 'name'],
      ['kind=webfile&name=%2Fetc%2Fpasswd', 'name'],
      ['kind=script&name=run.txt', 'name'],
      ['kind=script&name=..%2Frun.cfg', 'name'],
      ['kind=script&name=1run.cfg', 'name'],
      ['kind=script&name=.cfg', 'name'],
      ['kind=script&name=a_very_long_script_name_123.cfg', 'name'], // 31 characters (spec §9: file name 30)
      ['kind=firmware&name=x.zip', 'kind'],
      ['name=x.cfg', 'kind'],
      ['kind=script&name=x.cfg&extra=1', 'extra'],
    ];
    for (const [query, path] of refused) {
      const r = await upload(admin, query, Buffer.from('data'));
      expect(r.status, query).toBe(400);
      expect(r.body.error.code, query).toBe('invalid_input');
      expect(
        r.body.error.issues.map((i: { path: string }) => i.path),
        query,
      ).toContain(path);
    }
    expect(await entries(join(d.dataDir, 'http'))).toEqual([]);
    expect(await entries(join(d.dataDir, 'certs', '..'))).not.toContain('ca.pem');
  });

  it("an expired certificate is flagged by the unit's clock", async () => {
    clock.advance(3 * 86_400_000);
    const again = await d.user(); // the old session ended with the clock
    const c = (await again.get('/config/get_certs?section=pew_mqtt')).body.certs.find((x: { name: string }) => x.name === 'ca.pem');
    expect(c.expired).toBe(true);
    clock.advance(-3 * 86_400_000);
    admin = await d.admin();
    user = await d.user();
  });

  it('delete_cert removes one file; a missing one is 404; unknown names are refused', async () => {
    await upload(admin, 'kind=cert&section=pew_email&name=ca.crt', pem['ca.pem']!);
    const del = await admin.post('/config/delete_cert', { section: 'pew_email', name: 'ca.crt' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: { section: 'pew_email', name: 'ca.crt' } });
    expect(await entries(certDir('pew_email'))).toEqual([]);
    expect((await admin.get('/config/get_certs?section=pew_email')).body).toEqual({ certs: [] });
    const again = await admin.post('/config/delete_cert', { section: 'pew_email', name: 'ca.crt' });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('file_not_found');
    for (const body of [
      { section: 'pew_email', name: '../ca.crt' },
      { section: 'pew_email', name: 'ca.txt' },
      { section: 'x', name: 'ca.crt' },
      { section: 'pew_email' },
      { section: 'pew_email', name: 'ca.crt', more: 1 },
    ]) {
      const r = await admin.post('/config/delete_cert', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    }
    expect((await admin.get('/config/get_certs?section=nope')).status).toBe(400);
  });

  it('the user role reads the list but may not upload or delete', async () => {
    const all = await user.get('/config/get_certs');
    expect(all.status).toBe(200);
    expect(all.body.certs.map((c: { section: string; name: string }) => `${c.section}/${c.name}`)).toEqual(
      expect.arrayContaining(['pew_mqtt/ca.pem', 'pew_tls_client/ca.der']),
    );
    const up = await upload(user, 'kind=cert&section=pew_mqtt&name=client.pem', pem['client.pem']!);
    expect(up.status).toBe(403);
    expect(up.body.error.code).toBe('forbidden');
    expect(await entries(certDir('pew_mqtt'))).not.toContain('client.pem');
    const del = await user.post('/config/delete_cert', { section: 'pew_mqtt', name: 'ca.pem' });
    expect(del.status).toBe(403);
    expect(await entries(certDir('pew_mqtt'))).toContain('ca.pem');
    const noCsrf = await upload({ ...admin, csrf: '' } as Client, 'kind=cert&section=pew_mqtt&name=client.pem', pem['client.pem']!);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('csrf');
  });
});

describe('web files and scripts', () => {
  it('a web file is stored byte-exact and listed by get_http_content; a second upload replaces it', async () => {
    const bytes = randomBytes(300_000);
    const r = await upload(admin, 'kind=webfile&name=logo-2.png', bytes);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ kind: 'webfile', name: 'logo-2.png', size: bytes.length });
    expect(await readFile(join(d.dataDir, 'http', 'logo-2.png'))).toEqual(bytes);
    const page = Buffer.from('<!doctype html><title>Line 3</title>');
    expect((await upload(admin, 'kind=webfile&name=index.html', page, false)).status).toBe(200); // chunked
    await upload(admin, 'kind=webfile&name=logo-2.png', bytes.subarray(0, 10));
    expect((await user.get('/config/get_http_content')).body).toEqual({
      files: [
        { name: 'index.html', size: page.length },
        { name: 'logo-2.png', size: 10 },
      ],
    });
  });

  it('a script is stored and listed; one that is no script text is refused', async () => {
    const text = Buffer.from('# line one\r\n[cycle 60]\r\nread a = DT 1\r\n');
    const r = await upload(admin, 'kind=script&name=shift_report.cfg', text);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await readFile(join(d.dataDir, 'scripts', 'shift_report.cfg'))).toEqual(text);
    expect((await user.get('/config/get_scripts')).body.files.map((f: { name: string }) => f.name)).toEqual(['shift_report.cfg']);
    const nul = await upload(admin, 'kind=script&name=bad.cfg', Buffer.from('a\u0000b'));
    expect(nul.status).toBe(400);
    expect(nul.body.error.issues).toEqual([{ path: 'content', code: 'invalid_characters' }]);
    const latin1 = await upload(admin, 'kind=script&name=bad.cfg', Buffer.from([0x61, 0xe4, 0x0a]));
    expect(latin1.status).toBe(400);
    expect(await entries(join(d.dataDir, 'scripts'))).toEqual(['shift_report.cfg']);
  });

  it('oversize: a declared length over the cap is refused at once; a streamed body is cut at the cap; nothing is left on disk', async () => {
    const over = Buffer.alloc(UPLOAD_MAX.cert + 1, 0x41);
    const declared = await upload(admin, 'kind=cert&section=pew_mqtt&name=client.pem', over);
    expect(declared.reset || declared.status === 413).toBe(true);
    if (!declared.reset) expect(declared.body.error).toMatchObject({ code: 'file_too_large', params: { max: UPLOAD_MAX.cert } });

    // 20 MiB streamed without a length in 64 KiB chunks, against the 4 MiB cap of web files
    const chunk = randomBytes(64 * 1024);
    const streamed = await upload(
      admin,
      'kind=webfile&name=huge.bin',
      Array.from({ length: 320 }, () => chunk),
      false,
    );
    expect(streamed.reset || streamed.status === 413).toBe(true);
    if (!streamed.reset) expect(streamed.body.error).toMatchObject({ code: 'file_too_large', params: { max: UPLOAD_MAX.webfile } });
    const script = await upload(
      admin,
      'kind=script&name=long.cfg',
      Array.from({ length: 4 }, () => Buffer.alloc(20_000, 0x23)),
      false,
    );
    expect(script.reset || script.status === 413).toBe(true);

    expect(await entries(certDir('pew_mqtt'))).toEqual(['ca.pem', 'key.key']);
    expect(await entries(join(d.dataDir, 'http'))).toEqual(['index.html', 'logo-2.png']);
    expect(await entries(join(d.dataDir, 'scripts'))).toEqual(['shift_report.cfg']);
    // exactly at the cap is accepted
    const atCap = await upload(
      admin,
      'kind=webfile&name=full.bin',
      Array.from({ length: 64 }, () => chunk),
      false,
    );
    expect(atCap.status).toBe(200);
    expect(atCap.body.size).toBe(UPLOAD_MAX.webfile);
    // the daemon still serves
    expect((await admin.get('/config/pew_mqtt')).status).toBe(200);
  });
});
