// The firmware update against the real supervisor and the real daemon of a built image (spec §4
// firmware states, §5 firmware rules and version compatibility, §8; security.md FW-1, ZIP-1, AUD-1):
// a crafted-image corpus (missing .md5, wrong type and name, bad md5, tampered manifest and file,
// a flipped byte, wrong key, unsigned, older, incompatible, `..` entry, symlink entry, zip bomb) is
// refused with its reason and nothing changes; a good image is installed and answers with its
// version; a release that does not start is rolled back; a supervisor killed during the switch
// brings the old version back on its next start.

import { readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packImage } from '../../build/image.ts';
import { layoutOf } from '../../device/firmware/layout.ts';
import { newKeyPair } from '../../device/firmware/manifest.ts';
import { md5Of } from '../../device/firmware/verify.ts';
import { MIN_VERSIONS } from '../../device/model/versions.ts';
import { zip } from '../../device/system/zip.ts';
import type { Client } from '../support/daemon.ts';
import {
  adminClient,
  buildTestImages,
  makeRoot,
  readImage,
  type Supervisor,
  startSupervisor,
  type TestImages,
  uploadImage,
  waitForVersion,
} from '../support/firmware.ts';
import { until as waitUntil } from './logger-rig.ts';

let imgs: TestImages;
let sup: Supervisor | undefined;
let root: string;
let admin: Client;

beforeAll(async () => {
  imgs = await buildTestImages(['1.5.0', '1.5.1', '1.5.2']);
  root = await makeRoot(imgs.keyPem);
  sup = await startSupervisor(root, { image: imgs.images.get('1.5.0')!.zipFile, startTimeoutMs: 30_000 });
  admin = await adminClient(sup.url);
}, 180_000);

afterAll(async () => {
  await sup?.stop();
  await rm(imgs.dir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

/** A tiny signed release: one entry file with `code`. */
function fakeImage(version: string, code: string, opts: { keyPem?: string; min?: Partial<Record<'app' | 'bsp' | 'hmi', string>> } = {}) {
  const files = new Map([['dist/daemon/daemon.mjs', new TextEncoder().encode(code)]]);
  return packImage(files, { version, variant: 'sim', min: { ...MIN_VERSIONS, ...opts.min }, entry: 'dist/daemon/daemon.mjs' }, opts.keyPem ?? imgs.keyPem);
}

/** Replaces `from` by `to` (same length) everywhere in an archive: names in local and central headers. */
function patch(data: Uint8Array, from: string, to: string): Uint8Array {
  const buf = Buffer.from(data);
  for (let i = buf.indexOf(from); i >= 0; i = buf.indexOf(from, i + 1)) buf.write(to, i);
  return buf;
}

/** Sets the Unix mode of every central directory entry named `name` (a symlink: 0o120777). */
function setMode(data: Uint8Array, name: string, mode: number): Uint8Array {
  const buf = Buffer.from(data);
  for (let i = buf.indexOf(Buffer.from([0x50, 0x4b, 1, 2])); i >= 0; i = buf.indexOf(Buffer.from([0x50, 0x4b, 1, 2]), i + 4)) {
    const len = buf.readUInt16LE(i + 28);
    if (buf.toString('utf8', i + 46, i + 46 + len) === name) buf.writeUInt32LE((mode << 16) >>> 0, i + 38);
  }
  return buf;
}

async function snapshot() {
  const l = layoutOf(root);
  return {
    releases: (await readdir(l.releases)).sort(),
    current: await readlink(l.current),
    version: (await admin.get('/config/get_update_status')).body.version,
  };
}

describe('refused images change nothing', () => {
  const cases: [string, () => Promise<{ zip: Uint8Array; md5?: string; names?: { name: string; md5_name: string } }>, string, Record<string, unknown>?][] = [
    ['a missing .md5', async () => ({ zip: (await readImage(imgs.images.get('1.5.1')!)).zip }), 'missing_files'],
    ['a wrong type', async () => ({ ...(await readImage(imgs.images.get('1.5.1')!)), names: { name: 'fw.tar', md5_name: 'fw.md5' } }), 'file_type'],
    [
      'an .md5 of another name',
      async () => ({ ...(await readImage(imgs.images.get('1.5.1')!)), names: { name: 'fw.zip', md5_name: 'other.md5' } }),
      'file_name',
    ],
    ['a bad md5', async () => ({ zip: (await readImage(imgs.images.get('1.5.1')!)).zip, md5: '0123456789abcdef0123456789abcdef  fw.zip\n' }), 'md5'],
    [
      'a tampered manifest (md5 made to fit)',
      async () => {
        const good = fakeImage('1.6.0', 'x');
        const manifest = new TextDecoder().decode(good.manifestBytes).replace('"version": "1.6.0"', '"version": "1.9.0"');
        expect(manifest).toContain('1.9.0');
        const z = zip([
          { name: 'manifest.json', data: manifest },
          { name: 'manifest.sig', data: good.signature },
          { name: 'dist/daemon/daemon.mjs', data: 'x' },
        ]);
        return { zip: z, md5: md5Of(z) };
      },
      'signature',
    ],
    [
      'a tampered file (CRC and md5 made to fit)',
      async () => {
        const good = fakeImage('1.6.0', 'console.log(1)');
        const entries = [
          { name: 'manifest.json', data: good.manifestBytes },
          { name: 'manifest.sig', data: good.signature },
          { name: 'dist/daemon/daemon.mjs', data: 'console.log(2)' },
        ];
        const z = zip(entries);
        return { zip: z, md5: md5Of(z) };
      },
      'content',
    ],
    [
      'a flipped byte inside the daemon (md5 made to fit)',
      async () => {
        const z = Buffer.from((await readImage(imgs.images.get('1.5.1')!)).zip);
        const at = z.indexOf('dist/daemon/daemon.mjs') + 'dist/daemon/daemon.mjs'.length + 5000;
        z[at] = z[at]! ^ 0x20;
        return { zip: z, md5: md5Of(z) };
      },
      'archive',
    ],
    [
      'a wrong key',
      async () => {
        const bad = fakeImage('1.6.0', 'x', { keyPem: newKeyPair().privatePem });
        return { zip: bad.zip, md5: bad.md5 };
      },
      'signature',
    ],
    [
      'no signature',
      async () => {
        const z = zip([
          { name: 'manifest.json', data: fakeImage('1.6.0', 'x').manifestBytes },
          { name: 'dist/daemon/daemon.mjs', data: 'x' },
        ]);
        return { zip: z, md5: md5Of(z) };
      },
      'signature',
    ],
    [
      'an older version',
      async () => {
        const old = fakeImage('1.4.9', 'x');
        return { zip: old.zip, md5: old.md5 };
      },
      'older',
      { version: '1.4.9', running: '1.5.0' },
    ],
    [
      'an image for a newer BSP',
      async () => {
        const img = fakeImage('1.6.0', 'x', { min: { bsp: '2.0' } });
        return { zip: img.zip, md5: img.md5 };
      },
      'incompatible',
      { kind: 'bsp', required: '2.0', installed: '1.3.2' },
    ],
    [
      'a `..` entry',
      async () => {
        const z = patch(
          zip([
            { name: 'aa/evil.txt', data: 'x' },
            { name: 'manifest.json', data: '{}' },
          ]),
          'aa/evil.txt',
          '../evil.txt',
        );
        return { zip: z, md5: md5Of(z) };
      },
      'archive',
      { problem: 'name' },
    ],
    [
      'a symlink entry',
      async () => {
        const z = setMode(
          zip([
            { name: 'link', data: '/etc/passwd' },
            { name: 'manifest.json', data: '{}' },
          ]),
          'link',
          0o120777,
        );
        return { zip: z, md5: md5Of(z) };
      },
      'archive',
      { problem: 'link' },
    ],
    [
      'a zip bomb',
      async () => {
        const z = zip([{ name: 'bomb.bin', data: new Uint8Array(50 * 1024 * 1024) }]);
        return { zip: z, md5: md5Of(z) };
      },
      'archive',
      { problem: 'ratio' },
    ],
  ];

  for (const [what, make, reason, params] of cases) {
    it(`refuses ${what}: ${reason}`, async () => {
      const before = await snapshot();
      const c = await make();
      const r = await uploadImage(admin, c.zip, c.md5, c.names);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'update_refused', params: { reason, ...params } });
      expect(await snapshot()).toEqual(before);
      const status = (await admin.get('/config/get_update_status')).body;
      expect(status).toMatchObject({ state: 'failed', reason, version: '1.5.0' });
      // nothing was left in the incoming folder either
      expect(await readdir(join(root, 'incoming')).catch(() => [])).toEqual([]);
    });
  }

  it('audits every refused attempt', async () => {
    const audit = await readFile(join(layoutOf(root).data, 'audit', 'audit.log'), 'utf8');
    const refused = audit.split('\n').filter((l) => l.includes('"firmware_update"') && l.includes('"refused"'));
    expect(refused.length).toBe(cases.length);
  });
});

describe('install', () => {
  it('installs a good image: the new version answers, the old one is kept as previous', async () => {
    const t0 = Date.now();
    const { zip: z, md5 } = await readImage(imgs.images.get('1.5.1')!);
    const r = await uploadImage(admin, z, md5, { name: 'communicator-1.5.1.zip', md5_name: 'communicator-1.5.1.md5' });
    expect(r).toMatchObject({ status: 202, body: { state: 'updating', target: '1.5.1' } });
    expect(await waitForVersion(sup!.url, '1.5.1', 60_000)).toBe(true);
    console.log(`upload → 1.5.1 answering: ${Date.now() - t0} ms`);
    const l = layoutOf(root);
    expect(await readlink(l.current)).toMatch(/^releases\/1\.5\.1_/);
    // the supervisor keeps the old release as previous and writes the result once the new one has
    // answered it, which can be after this test saw the new version answer (a busy machine)
    admin = await adminClient(sup!.url);
    await waitUntil(async () => (await admin.get('/config/get_update_status')).body?.last?.version === '1.5.1', 60_000, 'the install result');
    expect(await readlink(l.previous)).toMatch(/^releases\/1\.5\.0_/);
    const status = (await admin.get('/config/get_update_status')).body;
    expect(status).toMatchObject({ state: 'idle', version: '1.5.1', last: { ok: true, version: '1.5.1', from: '1.5.0' } });
    const info = await admin.get('/rest/api/v1?cache=true&js=true');
    expect(JSON.stringify(info.body)).toContain('1.5.1');
    const audit = await readFile(join(l.data, 'audit', 'audit.log'), 'utf8');
    expect(audit).toMatch(/"firmware_update".*"accepted".*"1\.5\.1"/);
    expect(audit).toMatch(/"firmware_result".*"ok":true/);
  });

  it('rolls back a release that does not start', async () => {
    const dead = fakeImage('1.6.0', 'process.exit(3)');
    const r = await uploadImage(admin, dead.zip, dead.md5);
    expect(r.status).toBe(202);
    // the daemon goes away and the old version comes back
    const until = Date.now() + 60_000;
    let status: any;
    while (Date.now() < until) {
      await new Promise((res) => setTimeout(res, 500));
      try {
        admin = await adminClient(sup!.url);
        status = (await admin.get('/config/get_update_status')).body;
        if (status.last?.version === '1.6.0') break;
      } catch {
        // restarting
      }
    }
    expect(status).toMatchObject({ version: '1.5.1', state: 'failed', reason: 'start_failed', last: { ok: false, version: '1.6.0', from: '1.5.1' } });
    expect(await readlink(layoutOf(root).current)).toMatch(/^releases\/1\.5\.1_/);
  });

  it('a supervisor killed during the switch comes back on the old version', async () => {
    const { zip: z, md5 } = await readImage(imgs.images.get('1.5.2')!);
    const l = layoutOf(root);
    expect((await uploadImage(admin, z, md5)).status).toBe(202);
    // the journal exists from before the old daemon stops until the new one answers
    const until = Date.now() + 60_000;
    while (Date.now() < until && !(await stat(l.journal).catch(() => undefined))) await new Promise((res) => setTimeout(res, 10));
    expect(await stat(l.journal).catch(() => undefined)).toBeDefined();
    await sup!.kill();
    sup = await startSupervisor(root, { port: sup!.port, startTimeoutMs: 60_000 });
    expect(await waitForVersion(sup.url, '1.5.1', 90_000), `the supervisor said:\n${sup.output()}`).toBe(true);
    expect(await readlink(l.current)).toMatch(/^releases\/1\.5\.1_/);
    admin = await adminClient(sup.url);
    expect((await admin.get('/config/get_update_status')).body).toMatchObject({ version: '1.5.1', last: { ok: false, version: '1.5.2', from: '1.5.1' } });
    expect(sup.output()).toContain('rolled back to 1.5.1');
  });
});
