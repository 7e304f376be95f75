// Backup and restore over a real socket (spec §2 /backuprestore, §5 backup password, §8 messages;
// security.md BK-1, AUTH-5, AUD-1): round trips with and without password onto a second unit with
// other settings and files; every refused file (wrong password, flipped bits, truncation, another
// product, a newer format, a section breaking a cross-rule) leaves the whole store and every file
// folder exactly as before; an older format is migrated; an unprotected backup holds no secret;
// a restore killed at random moments leaves the old or the new state on the next start, never a mix.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_FOLDERS } from '../../device/backup/content.ts';
import { MAGIC, PRODUCT, sealBackup } from '../../device/backup/format.ts';
import { recoverRestore } from '../../device/backup/restore.ts';
import { ConfigStore } from '../../device/config/store.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { createLogger } from '../../device/system/log.ts';
import { systemClock } from '../../hw/types.ts';
import { SAMPLE_EDITS, SAMPLE_SECRETS } from '../fixtures/samples.ts';
import { bundleChild, seededRandom } from '../support/child-bundle.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const PASSWORD = 'Backup-Pass1!';
// sections with secrets and no listener of their own (two daemons run side by side)
const SOURCE_SECTIONS = ['pew_mqtt', 'pew_ftpc', 'pew_httpc', 'pew_email', 'pew_rtc'];

const sample = (key: string, edit = SAMPLE_EDITS[key]!) => {
  const value: any = structuredClone(defaultsOf(CONFIG_SECTIONS.find((d) => d.key === key)!));
  edit(value);
  return value;
};
const secretsOf = (key: string) => CONFIG_SECTIONS.find((d) => d.key === key)!.passwords;

let source: TestDaemon;
let target: TestDaemon;
let src: Client;
let dst: Client;

interface Answer {
  status: number;
  body: any;
  bytes: Buffer;
  headers: Headers;
}

async function call(c: Client, path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(c.base + path, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { cookie: c.cookie, 'x-csrf-token': c.csrf, ...headers },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, bytes, headers: res.headers };
}

const backup = async (password?: string) => {
  const r = await call(src, '/config/get_backup', JSON.stringify(password === undefined ? {} : { password }), { 'content-type': 'application/json' });
  expect(r.status, r.bytes.toString().slice(0, 300)).toBe(200);
  return r;
};
const restore = (c: Client, file: Buffer, password?: string) =>
  call(c, '/config/restore', file, { 'content-type': 'application/octet-stream', ...(password === undefined ? {} : { 'x-backup-password': password }) });

async function folderFiles(dataDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else
        out[relative(dataDir, p)] = createHash('sha256')
          .update(await readFile(p))
          .digest('hex');
    }
  };
  for (const f of FILE_FOLDERS) await walk(join(dataDir, f));
  return out;
}

/** the whole state a restore may change: the store in memory, its files on disk, the file folders */
async function snapshot(d: TestDaemon) {
  const disk: Record<string, string> = {};
  for (const n of (await readdir(join(d.dataDir, 'config'))).sort()) disk[n] = await readFile(join(d.dataDir, 'config', n), 'utf8');
  return { store: d.ctx.store.all(), disk, files: await folderFiles(d.dataDir), staging: existsSync(join(d.dataDir, '.restore')) };
}

async function putFiles(dataDir: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dataDir, path, '..'), { recursive: true });
    await writeFile(join(dataDir, path), text);
  }
}

/** the content of a backup file read independently of the daemon's reader */
function plainContent(file: Buffer): { header: any; json: any } {
  const len = file.readUInt32BE(8);
  const header = JSON.parse(file.subarray(12, 12 + len).toString('utf8'));
  return { header, json: JSON.parse(gunzipSync(file.subarray(12 + len, file.length - 32)).toString('utf8')) };
}

beforeAll(async () => {
  [source, target] = await Promise.all([startTestDaemon(), startTestDaemon()]);
  [src, dst] = await Promise.all([source.admin(), target.admin()]);
  const all = Object.fromEntries(SOURCE_SECTIONS.map((k) => [k, sample(k)]));
  expect((await src.post('/config', { ...all, script_file: { content: 'ACTIVE SCRIPT\n' } })).status).toBe(200);
  await source.ctx.scripts.settled();
  await putFiles(source.dataDir, {
    'certs/pew_mqtt/ca.pem': '-----BEGIN CERTIFICATE-----\nsource-ca\n-----END CERTIFICATE-----\n',
    'certs/pew_tls_client/key.key': 'source key bytes',
    'http/index.html': '<h1>source</h1>',
    'scripts/extra.cfg': 'SOURCE SCRIPT\n',
    'logcfg/tank.cfg': 'DT100,INT,tank level\n',
  });
  // the second unit: other settings, other secrets, other files
  const other = {
    pew_mqtt: sample('pew_mqtt', (d) => Object.assign(d, { enable_mqtt: true, broker_addr: 'other.local', broker_password: 'Other-Secret-7', keep_alive: 45 })),
    pew_rtc: sample('pew_rtc', (d) => Object.assign(d, { rtc_by_plc: false })),
  };
  expect((await dst.post('/config', other)).status).toBe(200);
  await putFiles(target.dataDir, { 'http/other.html': 'other', 'certs/pew_ftpc/ca.pem': 'other ca', 'logcfg/old.cfg': 'old' });
}, 60_000);

afterAll(async () => {
  await Promise.all([source?.stop(), target?.stop()]);
});

describe('get_backup', () => {
  it('streams a named file; without a password it carries every section and file but no secret', async () => {
    const r = await backup();
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9-]+_\d{4}-\d\d-\d\d\.i4csettings"$/);
    expect(r.bytes.subarray(0, 8).equals(MAGIC)).toBe(true);
    const { header, json } = plainContent(r.bytes);
    expect(header).toMatchObject({ product: PRODUCT, format: 2, protection: 'sha256' });
    expect(Object.keys(json.sections).sort()).toEqual(CONFIG_SECTIONS.map((d) => d.key).sort());
    expect(json.sections.pew_mqtt.broker_addr).toBe('broker.local'); // the check below can see content
    expect(json.files.map((f: any) => `${f.folder}/${f.path}`).sort()).toEqual(Object.keys(await folderFiles(source.dataDir)).sort());
    const text = gunzipSync(r.bytes.subarray(12 + r.bytes.readUInt32BE(8), r.bytes.length - 32)).toString('latin1') + r.bytes.toString('latin1');
    for (const s of SAMPLE_SECRETS.filter((s) => !s.startsWith('sql') && !s.startsWith('nosql'))) expect(text).not.toContain(s);
    for (const k of SOURCE_SECTIONS) for (const p of secretsOf(k)) expect(json.sections[k][p]).toBe('');
  });

  it('with a password: encrypted, nothing readable; the password rules of spec §5 apply', async () => {
    const r = await backup(PASSWORD);
    const len = r.bytes.readUInt32BE(8);
    const header = JSON.parse(r.bytes.subarray(12, 12 + len).toString());
    expect(header).toMatchObject({ protection: 'aes-256-gcm', kdf: { name: 'scrypt' } });
    expect(Buffer.from(header.kdf.salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(header.iv, 'base64')).toHaveLength(12);
    expect(r.bytes.toString('latin1')).not.toContain('broker.local');
    for (const bad of ['short1!', 'nouppercase1!', 'NoDigits!!', 'NoSpecial12', `A1!${'a'.repeat(30)}`]) {
      const x = await call(src, '/config/get_backup', JSON.stringify({ password: bad }), { 'content-type': 'application/json' });
      expect(x.status).toBe(400);
      expect(x.body.error.issues[0]).toMatchObject({ path: 'password', code: 'password_policy' });
    }
    const audit = await source.ctx.audit.read();
    expect(audit).toMatch(/"action":"backup".*"protected":true/);
  });

  it('is for the admin only', async () => {
    const user = await source.user();
    const r = await call(user, '/config/get_backup', '{}', { 'content-type': 'application/json' });
    expect(r.status).toBe(403);
  });
});

describe('restore refuses and changes nothing', () => {
  let protectedFile: Buffer;
  let plainFile: Buffer;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    protectedFile = (await backup(PASSWORD)).bytes;
    plainFile = (await backup()).bytes;
    before = await snapshot(target);
  });
  const unchanged = async () => expect(await snapshot(target)).toEqual(before);

  it('a wrong password: "The password is not correct"; none at all: password required', async () => {
    const r = await restore(dst, protectedFile, 'Wrong-Pass1!');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'backup_wrong_password', message: 'The password is not correct' });
    const none = await restore(dst, protectedFile);
    expect(none.body.error).toMatchObject({ code: 'restore_failed', params: { reason: 'password_required' } });
    await unchanged();
  });

  it('a flipped bit anywhere, protected or not', async () => {
    for (const [file, password] of [
      [plainFile, undefined],
      [protectedFile, PASSWORD],
    ] as const) {
      const len = file.readUInt32BE(8);
      for (const at of [0, 9, 14, 12 + len - 3, 12 + len, 12 + len + 50, Math.floor(file.length / 2), file.length - 20, file.length - 1]) {
        const bad = Buffer.from(file);
        bad[at]! ^= 0x04;
        const r = await restore(dst, bad, password);
        expect(r.status, `offset ${at}`).toBe(400);
        expect(['restore_failed', 'backup_wrong_password'], `offset ${at}`).toContain(r.body.error.code);
        if (at >= 12 + len) expect(r.body.error.params, `offset ${at}`).toEqual({ reason: 'damaged' });
        expect(r.body.error.message).toMatch(/^(Failed to restore the settings|The password is not correct)/);
      }
    }
    await unchanged();
  });

  it('a truncated file', async () => {
    for (const file of [plainFile, protectedFile])
      for (const n of [0, 5, 11, 40, file.length - 33, file.length - 1]) {
        const r = await restore(dst, file.subarray(0, n), PASSWORD);
        expect(r.status, `length ${n}`).toBe(400);
        expect(['not_a_backup', 'damaged'], `length ${n}`).toContain(r.body.error.params.reason);
      }
    await unchanged();
  });

  it('another product, a newer format', async () => {
    const { header, json } = plainContent(plainFile);
    const other = await sealBackup({ ...header, product: 'other-gateway' }, gzipSync(JSON.stringify(json)));
    expect((await restore(dst, other)).body.error).toMatchObject({ code: 'restore_failed', params: { reason: 'other_product' } });
    const newer = await sealBackup({ ...header, format: 3 }, gzipSync(JSON.stringify(json)), PASSWORD);
    expect((await restore(dst, newer, PASSWORD)).body.error).toMatchObject({ code: 'restore_failed', params: { reason: 'newer_version' } });
    await unchanged();
  });

  it('a section that breaks a cross-rule or a field rule, with the issues of a save', async () => {
    const { header, json } = plainContent(plainFile);
    json.sections.pew_ftpc.plc_control_dt = 270; // MQTT holds 260-293
    const r = await restore(dst, await sealBackup(header, gzipSync(JSON.stringify(json))));
    expect(r.body.error).toMatchObject({ code: 'restore_failed', params: { reason: 'invalid_settings' } });
    expect(r.body.error.issues).toContainEqual(expect.objectContaining({ section: 'pew_ftpc', path: 'plc_control_dt', code: 'addresses_overlap' }));
    const field = structuredClone(plainContent(plainFile).json);
    field.sections.pew_mqtt.keep_alive = -5;
    const f = await restore(dst, await sealBackup(header, gzipSync(JSON.stringify(field))));
    expect(f.body.error.issues).toContainEqual(expect.objectContaining({ section: 'pew_mqtt', path: 'keep_alive', code: 'out_of_range' }));
    await unchanged();
  });

  it('a file name that climbs out of its folder (ZIP-1)', async () => {
    const { header, json } = plainContent(plainFile);
    for (const [folder, path] of [
      ['http', '../config/pew.json'],
      ['certs', 'pew_mqtt/../../x.pem'],
      ['scripts', '.hidden'],
      ['http', '/etc/passwd'],
    ]) {
      const bad = structuredClone(json);
      bad.files.push({ folder, path, data: 'eA==' });
      const r = await restore(dst, await sealBackup(header, gzipSync(JSON.stringify(bad))));
      expect(r.body.error, path).toMatchObject({ code: 'restore_failed', params: { reason: 'content' } });
    }
    await unchanged();
  });
});

describe('restore applies', () => {
  it('with a password: the same sections, secrets included, and the same files', async () => {
    const file = (await backup(PASSWORD)).bytes;
    const r = await restore(dst, file, PASSWORD);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ ok: true, format: 2 });
    expect(target.ctx.store.all()).toEqual(source.ctx.store.all());
    expect(await folderFiles(target.dataDir)).toEqual(await folderFiles(source.dataDir));
    expect(existsSync(join(target.dataDir, '.restore'))).toBe(false);
    expect(await target.ctx.audit.read()).toMatch(/"action":"restore".*"ok":true/);
  });

  it('without a password: the same settings, and the unit keeps its own secrets', async () => {
    const other = sample('pew_mqtt', (d) => Object.assign(d, { enable_mqtt: true, broker_addr: 'changed.local', broker_password: 'Kept-Secret-3' }));
    expect((await dst.post('/config/pew_mqtt', other)).status).toBe(200);
    await putFiles(target.dataDir, { 'http/stray.html': 'gone after the restore' });
    const r = await restore(dst, (await backup()).bytes);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const want = source.ctx.store.all() as any;
    want.pew_mqtt.broker_password = 'Kept-Secret-3';
    expect(target.ctx.store.all()).toEqual(want);
    expect(await folderFiles(target.dataDir)).toEqual(await folderFiles(source.dataDir));
  });

  it('a backup of format 1 is migrated', async () => {
    await dst.post(
      '/config/pew_rtc',
      sample('pew_rtc', (d) => Object.assign(d, { rtc_by_plc: false })),
    );
    const { header, json } = plainContent((await backup()).bytes);
    // format 1 kept the sections under `settings` and the files by kind, without log configurations
    const v1 = {
      settings: json.sections,
      certificates: {} as Record<string, Record<string, string>>,
      webfiles: Object.fromEntries(json.files.filter((f: any) => f.folder === 'http').map((f: any) => [f.path, f.data])),
      scripts: Object.fromEntries(json.files.filter((f: any) => f.folder === 'scripts').map((f: any) => [f.path, f.data])),
    };
    for (const f of json.files.filter((f: any) => f.folder === 'certs')) {
      const [section, name] = f.path.split('/');
      (v1.certificates[section] ??= {})[name] = f.data;
    }
    const file = await sealBackup({ ...header, format: 1, app: '0.9.0' }, gzipSync(JSON.stringify(v1)), PASSWORD);
    const r = await restore(dst, file, PASSWORD);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.format).toBe(1);
    expect(target.ctx.store.get('pew_rtc')).toEqual(source.ctx.store.get('pew_rtc'));
    const files = await folderFiles(target.dataDir);
    const expected = Object.fromEntries(Object.entries(await folderFiles(source.dataDir)).filter(([p]) => !p.startsWith('logcfg/')));
    expect(files).toEqual(expected); // format 1 had no log configuration files: the folder is empty
  });
});

describe('a restore killed at any moment', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('leaves the old or the new settings and files on the next start, never a mix', async () => {
    const work = await mkdtemp(join(tmpdir(), 'restore-kill-'));
    dirs.push(work);
    const { file: bundle, dir } = await bundleChild(new URL('../fixtures/restore-loop.ts', import.meta.url), 'restore-loop.mjs');
    dirs.push(dir);
    // A = the source unit, B = the target unit as set up differently before
    const a = (await backup()).bytes;
    await dst.post(
      '/config/pew_mqtt',
      sample('pew_mqtt', (d) => Object.assign(d, { broker_addr: 'b.local', keep_alive: 99 })),
    );
    await putFiles(target.dataDir, { 'http/b-only.html': 'b', 'logcfg/b.cfg': 'b' });
    const bRes = await call(dst, '/config/get_backup', '{}', { 'content-type': 'application/json' });
    const b = bRes.bytes;
    await writeFile(join(work, 'a.i4csettings'), a);
    await writeFile(join(work, 'b.i4csettings'), b);
    const data = join(work, 'data');
    await cp(target.dataDir, data, { recursive: true, filter: (s) => !s.includes(`${join(target.dataDir, 'audit')}`) });

    // the expected states: each restored once, undisturbed, in a folder of its own
    const log = createLogger({ clock: systemClock, sink: null });
    const stateOf = async (dataDir: string) => {
      await recoverRestore(dataDir, log);
      const store = await ConfigStore.open({ dir: join(dataDir, 'config'), defs: CONFIG_SECTIONS, log });
      return JSON.stringify({ sections: store.all(), files: await folderFiles(dataDir) });
    };
    const random = seededRandom(0xb4c);
    const seen = new Set<string>();
    let states: string[] = [];
    let kills = 0;
    let midway = 0;
    for (let i = 0; i < 14; i++) {
      const child = spawn(process.execPath, [bundle, data, join(work, 'a.i4csettings'), join(work, 'b.i4csettings')], { stdio: ['ignore', 'pipe', 'pipe'] });
      const closed = once(child, 'close');
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
      for (let w = 0; w < 200 && !out.includes('restored A'); w++) await sleep(25);
      expect(out, err).toContain('restored A');
      await sleep(random() * 40);
      child.kill('SIGKILL');
      await closed;
      kills++;
      if (existsSync(join(data, '.restore'))) midway++;
      const state = await stateOf(data);
      if (!states.length) {
        // the two complete states, measured once on copies of the start folder
        for (const [name, f] of [
          ['a', a],
          ['b', b],
        ] as const) {
          const copy = join(work, `only-${name}`);
          await cp(data, copy, { recursive: true });
          const child2 = spawn(process.execPath, [bundle, copy, join(work, `${name}.i4csettings`), join(work, `${name}.i4csettings`)], {
            stdio: ['ignore', 'pipe', 'ignore'],
          });
          let o = '';
          child2.stdout.setEncoding('utf8').on('data', (s: string) => (o += s));
          for (let w = 0; w < 200 && !o.includes('restored B'); w++) await sleep(25);
          child2.kill('SIGKILL');
          await once(child2, 'close');
          // killed after a complete restore of the same file: any interrupted second one lands on the same state
          states.push(await stateOf(copy));
          void f;
        }
        states = [...new Set(states)];
        expect(states).toHaveLength(2);
      }
      expect(states, `iteration ${i}: a mix of old and new`).toContain(state);
      seen.add(state);
    }
    console.log(`restore kill test: ${kills} kills, ${midway} during a restore, both states seen: ${seen.size === 2}`);
    expect(midway).toBeGreaterThan(0);
  }, 180_000);
});
