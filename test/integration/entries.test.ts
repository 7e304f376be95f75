// The command-line entries as a person starts them: the unit's daemon from its bundle
// (`npm run daemon`, the systemd unit's command), the simulator (`npm start`'s second step) with
// `npm run plc` finding it through its data folder, and `npm run supervisor`. Each answers --help,
// logs one line on start and one on stop, and stops on SIGTERM leaving no process of its group
// and nothing listening on its port. The bundled daemon renders the console's first frame in the
// thread whose module lies beside its entry (device/api/first-frame.ts).

import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDaemon } from '../../build/daemon.ts';
import { SERVICE_FILE } from '../../build/image.ts';
import { FRAME_WORKER } from '../../device/api/first-frame.ts';
import { APP_ELEMENT, consoleScriptTag, FIRST_FRAME_ATTR, FIRST_FRAME_FILE, PREFS_COOKIE, START_SCRIPT_ATTR } from '../../device/model/first-frame.ts';
import { START_ANSWERS_ID, START_ANSWERS_MARKER, SYSTEM_INFO_PATH } from '../../device/model/start-answers.ts';
import { readZip } from '../../device/system/unzip.ts';
import { SIM_URL_FILE } from '../../sim/sim-url.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { type EntryProcess, eventually, listening, startEntry } from '../support/entry-process.ts';
import { buildTestImages, makeRoot, type TestImages } from '../support/firmware.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = ['--import', 'tsx'];
/** only COM1 and a COM4 on free ports: no fixed port shared with other simulators on the machine */
const PLCS = { COM2: null, COM3: null, COM4: { mewtocolPort: 0, modbusPort: 0 } };

let tmp: string;
let plcsFile: string;
const started: EntryProcess[] = [];
const start = (...a: Parameters<typeof startEntry>) => {
  const e = startEntry(...a);
  started.push(e);
  return e;
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'entries-'));
  plcsFile = join(tmp, 'plcs.json');
  await writeFile(plcsFile, JSON.stringify(PLCS));
});

afterAll(async () => {
  for (const e of started) e.killGroup();
  await rm(tmp, { recursive: true, force: true });
});

/** Stops the entry with SIGTERM; its exit and the last line it wrote. */
async function term(e: EntryProcess, pid = e.proc.pid!) {
  process.kill(pid, 'SIGTERM');
  const exit = await e.exited;
  return { exit, last: e.output().trim().split('\n').at(-1) };
}

describe("the unit's daemon from its bundle (npm run daemon)", () => {
  let root: string;
  let file: string;

  beforeAll(async () => {
    // a checkout-like folder: the bundle in dist/daemon, serialport found through node_modules
    root = join(tmp, 'checkout');
    file = await buildDaemon(root);
    await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  }, 120_000);

  it('--help lists the options and exits 0; a bad option exits 2 and points to --help', () => {
    const help = spawnSync(process.execPath, [file, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run daemon -- \[options\]/);
    for (const flag of ['--port N', '--data DIR', '--host ADDR', '--com1 PATH']) expect(help.stdout).toContain(flag);
    expect(help.stdout).not.toContain('--plcs');
    const bad = spawnSync(process.execPath, [file, '--plc', 'x'], { encoding: 'utf8' });
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('(--help lists the options)')]);
  });

  it('logs one line on start and one on stop; SIGTERM stops it cleanly and frees the port', async () => {
    const port = await freePort();
    // plain HTTP (the unit's default HTTPS port 8081 is fixed; the HTTPS console has its own tests in console-tls.test.ts)
    const e = start(process.execPath, [file, '--port', String(port), '--tls-port', 'off', '--data', join(tmp, 'unit-data'), '--host', LOOPBACK], { cwd: root });
    const [, url] = await e.waitFor(/^Daemon running: (http:\/\/\S+)/m);
    expect(url).toBe(`http://${LOOPBACK}:${port}`);
    const res = await fetch(`${url}/rest/api/v1/authentication`);
    expect((await res.json()).error.code).toBe('setup_required');
    const { exit, last } = await term(e);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(last).toBe('Daemon stopped (SIGTERM)');
    expect(e.output().match(/^Daemon /gm)).toHaveLength(2); // the start line and the stop line
    expect(await listening(port)).toBe(false);
    expect(e.groupAlive()).toBe(false);
  });

  it("signs in, reads and saves without ever loading node's own fetch classes (undici: 4-7 MB of memory)", async () => {
    const port = await freePort();
    const seen = join(tmp, 'undici-loaded.json');
    // written as the process exits: the built-in modules it loaded that belong to undici
    const probe = join(tmp, 'undici-probe.cjs');
    await writeFile(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.moduleLoadList.filter((m) => /undici/.test(m)))));\n`,
    );
    const e = start(
      process.execPath,
      ['--require', probe, file, '--port', String(port), '--tls-port', 'off', '--data', join(tmp, 'undici-data'), '--host', LOOPBACK],
      {
        cwd: root,
      },
    );
    const [, url] = await e.waitFor(/^Daemon running: (http:\/\/\S+)/m);
    const c = new Client(url!);
    expect((await c.post('/rest/api/v1/authentication/setup', ADMIN)).status).toBe(201);
    await c.login(ADMIN);
    expect((await c.get('/rest/api/v1')).status).toBe(200);
    const mqtt = await c.get('/config/pew_mqtt');
    expect(mqtt.status).toBe(200);
    const saved = await c.post('/config/pew_mqtt', { ...mqtt.body, broker_addr: 'broker.local:1884' });
    expect(saved.status, saved.text).toBe(200);
    expect((await c.get('/config/pew_mqtt')).body).toMatchObject({ broker_addr: 'broker.local:1884' });
    expect((await c.post('/config/pew_mqtt', '{"broker_addr":')).status).toBe(400); // a body that is no JSON
    expect((await term(e)).exit).toEqual({ code: 0, signal: null });
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual([]);
  });

  it("renders the console's first frame in its thread, from the module beside the bundle", async () => {
    // a console of two files: the page, and a renderer that gives the page's start answers (their paths) after a promise job
    const web = join(root, 'dist', 'web');
    await mkdir(web, { recursive: true });
    await writeFile(
      join(web, 'index.html'),
      `<!doctype html><html lang="en" data-theme="default"><head>${consoleScriptTag('assets/main.js')}</head><body>${APP_ELEMENT}${START_ANSWERS_MARKER}</body></html>`,
    );
    await writeFile(
      join(web, FIRST_FRAME_FILE),
      `globalThis.renderFirstFrame = () => { Promise.resolve().then(() => { document.documentElement.lang = navigator.language; globalThis.firstFrame = '<p>' + Object.keys(JSON.parse(document.getElementById(${JSON.stringify(START_ANSWERS_ID)}).textContent)).join(' ') + '</p>'; }); };`,
    );
    expect(await stat(join(dirname(file), `${FRAME_WORKER}.mjs`))).toBeTruthy();
    const port = await freePort();
    const e = start(process.execPath, [file, '--port', String(port), '--tls-port', 'off', '--data', join(tmp, 'frame-data'), '--host', LOOPBACK], {
      cwd: root,
    });
    const [, url] = await e.waitFor(/^Daemon running: (http:\/\/\S+)/m);
    const c = new Client(url!);
    expect((await c.post('/rest/api/v1/authentication/setup', ADMIN)).status).toBe(201);
    await c.login(ADMIN);
    const res = await fetch(`${url}/`, { headers: { cookie: `${c.cookie}; ${PREFS_COOKIE}=de.default.all` } });
    const page = await res.text();
    expect(res.status).toBe(200);
    // the frame, naming the page's script for its gate
    expect(page).toContain(`<div id="app" ${FIRST_FRAME_ATTR}="info" ${START_SCRIPT_ATTR}="assets/main.js"><p>`);
    expect(page).toContain(SYSTEM_INFO_PATH);
    expect(page).toContain('<html lang="de"');
    expect(e.output()).not.toContain('first frame');
    expect((await term(e)).exit).toEqual({ code: 0, signal: null });
  });

  it('npm run daemon without a build says to build first', async () => {
    const bare = join(tmp, 'unbuilt');
    await mkdir(bare);
    await copyFile(join(ROOT, 'package.json'), join(bare, 'package.json'));
    const r = spawnSync('npm', ['run', '--silent', 'daemon'], { cwd: bare, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('the daemon is not built: run npm run build first');
  });
});

describe('the simulator and npm run plc', () => {
  const plc = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [...TSX, 'sim/plc-cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SIM_URL: '', ...env } });

  it('--help of both lists their options', () => {
    const sim = spawnSync(process.execPath, [...TSX, 'sim/main.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(sim.status).toBe(0);
    expect(sim.stdout).toMatch(/^usage: npm start -- \[options\]/);
    expect(sim.stdout).toContain('--plcs FILE');
    const p = plc(['--help']);
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('not through the unit');
  });

  it('plc finds the simulator on any port through its data folder; SIGTERM stops the simulator and removes its URL', async () => {
    const data = join(tmp, 'sim-data');
    const e = start(process.execPath, [...TSX, 'sim/main.ts', '--port', '0', '--data', data, '--plcs', plcsFile], { cwd: ROOT });
    const [, url] = await e.waitFor(/^Simulator running: (http:\/\/\S+)/m);
    await e.waitFor(/PLC memory and faults: npm run plc -- --help/);
    expect(e.output()).toMatch(/COM1 +FP-XH station 1 +MEWTOCOL 9600 8O1/);
    expect(e.output()).not.toMatch(/gzip|budget/i); // no size table
    expect(JSON.parse(await readFile(join(data, SIM_URL_FILE), 'utf8'))).toEqual({ url, pid: e.proc.pid });

    const write = plc(['--data', data, 'write', 'COM1', 'DT100', '1234', '5']);
    expect(write.status, write.stderr).toBe(0);
    expect(plc(['--data', data, 'read', 'COM1', 'DT100', '2']).stdout.trim()).toBe('1234 5');
    expect(plc(['read', 'COM1', 'DT101'], { DATA_DIR: data }).stdout.trim()).toBe('5');

    const { exit, last } = await term(e);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(last).toBe('Simulator stopped (SIGTERM)');
    expect(await stat(join(data, SIM_URL_FILE)).catch(() => undefined)).toBeUndefined();
    expect(await listening(Number(new URL(url!).port))).toBe(false);
    expect(e.groupAlive()).toBe(false);

    const gone = plc(['--data', data, 'list']);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain(`no simulator has written its URL into ${data}`);
  });
});

describe('npm run supervisor', () => {
  let imgs: TestImages;
  let root: string;

  beforeAll(async () => {
    imgs = await buildTestImages(['1.5.0']);
    root = await makeRoot(imgs.keyPem);
  }, 180_000);

  afterAll(async () => {
    await rm(imgs.dir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  it('the image carries the systemd unit of its daemon, listed in the signed manifest', async () => {
    const entries = readZip(await readFile(imgs.images.get('1.5.0')!.zipFile), { maxEntries: 10_000, maxTotalBytes: 1 << 30, maxRatio: 1000 });
    const unit = entries.find((e) => e.name === SERVICE_FILE)!;
    expect(unit.read().toString()).toBe(await readFile(join(ROOT, 'build', SERVICE_FILE), 'utf8'));
    const manifest = JSON.parse(
      entries
        .find((e) => e.name === 'manifest.json')!
        .read()
        .toString(),
    ) as { files: { path: string }[] };
    expect(manifest.files.map((f) => f.path)).toContain(SERVICE_FILE);
  });

  it("the image carries the first frame's thread beside its daemon, listed in the signed manifest", async () => {
    const entries = readZip(await readFile(imgs.images.get('1.5.0')!.zipFile), { maxEntries: 10_000, maxTotalBytes: 1 << 30, maxRatio: 1000 });
    const manifest = JSON.parse(
      entries
        .find((e) => e.name === 'manifest.json')!
        .read()
        .toString(),
    ) as { files: { path: string }[] };
    expect(manifest.files.map((f) => f.path)).toContain(`dist/daemon/${FRAME_WORKER}.mjs`);
  });

  it('SIGTERM to npm stops tsx, the supervisor and its daemon: nothing left, the port free', async () => {
    const port = await freePort();
    const args = [
      'run',
      'supervisor',
      '--',
      '--root',
      root,
      '--image',
      imgs.images.get('1.5.0')!.zipFile,
      '--port',
      String(port),
      '--host',
      LOOPBACK,
      '--plcs',
      plcsFile,
    ];
    const e = start('npm', args, { cwd: ROOT });
    await e.waitFor(/supervisor: running 1\.5\.0/);
    expect(await eventually(() => listening(port), 60_000)).toBe(true);
    process.kill(e.proc.pid!, 'SIGTERM'); // the npm process, as a terminal or a service manager would
    expect(await eventually(() => !e.groupAlive(), 30_000)).toBe(true);
    expect(await listening(port)).toBe(false);
    await e.exited; // the output read to its end
    expect(e.output()).toContain('Simulator stopped (SIGTERM)');
    expect(e.output()).toContain('supervisor: stopped (SIGTERM)');
  });
});
