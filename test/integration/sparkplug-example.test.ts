// docs/sparkplug.md's worked example, followed as written: the simulator as `npm start` builds it
// (sim/simulator.ts, with a data folder and a free console port of its own), the page's `mosquitto`,
// `mosquitto_sub` and `npm run plc` lines run as typed (a free port in place of 1883, DATA_DIR
// pointing `npm run plc` at this simulator), the settings of its steps 1–3 read from the page and
// saved with the requests the console's pages make, and what the page promises asserted: the topics
// mosquitto_sub prints, in order, the status line's figures, and the payloads decoded with Tahu's
// sparkplug-payload (sparkplug-host.ts). Page and product cannot drift apart unnoticed.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../device/cli.ts';
import { type Daemon, startDaemon } from '../../device/main.ts';
import { INTERFACE_NAMES } from '../../device/model/plc.ts';
import type { Log } from '../../device/model/sections/log.ts';
import { LOG_TYPES, type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import type { Mqtt } from '../../device/model/sections/mqtt.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { simulatorVariant } from '../../sim/simulator.ts';
import en_fields from '../../web/i18n/en/fields/index.ts';
import en_status from '../../web/i18n/en/serviceStatus/index.ts';
import type { Client } from '../support/daemon.ts';
import { listening } from '../support/entry-process.ts';
import { adminClient } from '../support/firmware.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { big, Host } from './sparkplug-host.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const PAGE = readFileSync(join(ROOT, 'docs/sparkplug.md'), 'utf8');
const EXAMPLE = PAGE.slice(PAGE.indexOf('## A worked example'), PAGE.indexOf('\n## ', PAGE.indexOf('## A worked example') + 3));
/** The page's port of the broker: the reader's machine has it free; this test takes a free one. */
const PAGE_PORT = '1883';

/** the one match group of `re` in the example, or a failure that says what the page lacks */
function said(re: RegExp): string {
  const m = re.exec(EXAMPLE);
  if (!m) throw new Error(`docs/sparkplug.md's worked example no longer says ${re}`);
  return m[1]!;
}
/** the example's fenced blocks, each with its language ('' for none) and its lines */
const blocks = [...EXAMPLE.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1]!,
  lines: m[2]!
    .trim()
    .split('\n')
    .map((l) => l.trim()),
}));
/** the command lines of the example's sh blocks */
const commands = blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.lines);
/** the topics of the example's plain blocks, in order (what mosquitto_sub prints) */
const promised = blocks
  .filter((b) => b.lang === '')
  .flatMap((b) => b.lines)
  .map((l) => /^(spBv1\.0\/\S+) …$/.exec(l)?.[1])
  .filter((t) => t !== undefined);
const line = (start: string) => {
  const l = commands.find((c) => c.startsWith(start));
  if (!l) throw new Error(`the worked example has no \`${start}…\` line`);
  return l;
};

let dataDir: string;
let variant: Variant;
let daemon: Daemon;
let admin: Client;
let port: string;
let host: Host;
const started: ChildProcess[] = [];
let subOut = '';

/** A long-running line of the page as typed, with this test's broker port. */
function start(l: string): ChildProcess {
  const p = spawn('sh', ['-c', `exec ${l.replaceAll(PAGE_PORT, port)}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(p);
  return p;
}
/** The topics mosquitto_sub printed so far, in order (a payload's bytes may hold anything but such a topic). */
const printed = () => [...subOut.matchAll(/spBv1\.0\/[A-Za-z0-9_]+\/[A-Z]+\/[A-Za-z0-9_/]+?(?= )/g)].map((m) => m[0]).filter((t) => !t.startsWith(PROBE));
/** a topic only to learn when mosquitto_sub listens (a command topic: the host does not try to decode it) */
const PROBE = 'spBv1.0/probe/NCMD/';

const status = async () => ((await admin.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === 'mqtt')!.sparkplug!;

beforeAll(async () => {
  port = String(await freePort());
  dataDir = await mkdtemp(join(tmpdir(), 'sparkplug-example-'));
  start(line('mosquitto -p'));
  await until(() => listening(Number(port), LOOPBACK), 10_000, 'mosquitto');
  // what `npm start` does (sim/main.ts), with a free console port and no console build
  expect(commands).toContain('npm start');
  variant = await simulatorVariant({ dataDir, serialMap: {} });
  daemon = await startDaemon({ hw: variant.hw, dataDir, port: 0, host: LOOPBACK, extraRoutes: variant.routes });
  await variant.listening!(daemon.url);
  admin = await adminClient(daemon.url);
  const sub = start(line('mosquitto_sub'));
  sub.stdout!.setEncoding('latin1');
  sub.stdout!.on('data', (s: string) => {
    subOut += s;
  });
  host = await Host.start(Number(port), 'example-host');
  // mosquitto_sub listens once a probe reaches it
  await until(
    async () => {
      await host.client.publishAsync(`${PROBE}x`, 'probe');
      return subOut.includes(PROBE);
    },
    10_000,
    'mosquitto_sub subscribed',
  );
}, 60_000);

afterAll(async () => {
  await host?.stop();
  await daemon?.close();
  await variant?.close?.();
  for (const p of started.reverse())
    if (p.exitCode === null && p.signalCode === null) {
      p.kill('SIGTERM');
      await once(p, 'exit');
    }
  await rm(dataDir, { recursive: true, force: true });
});

describe("docs/sparkplug.md's worked example", () => {
  it('steps 1–3, saved as the pages save them: mosquitto_sub prints NBIRTH then DBIRTH of device COM1, and the status line says what the page says', async () => {
    // the page names the console's fields by their English labels
    for (const label of [
      en_fields.pew.interfaces.enabled.label,
      en_fields.pew.interface_plc.label,
      en_fields.pew_mqtt.broker_addr.label,
      en_fields.pew_mqtt.sparkplug_enable.label,
      en_fields.pew_mqtt.sparkplug_group_id.label,
      en_fields.pew_mqtt.sparkplug_edge_node_id.label,
    ])
      expect(EXAMPLE).toContain(`*${label}*`);
    // 1. COM1 enabled and the service control interface
    const com = said(/tick \*[^*]+\* in the (COM\d) block/);
    expect(said(/choose (COM\d) as\s+\*/)).toBe(com);
    const comId = Number(Object.entries(INTERFACE_NAMES).find(([, n]) => n === com)![0]);
    const pew = (await admin.get('/config/pew')).body as Pew;
    pew.interfaces.find((i) => i.id === comId)!.enabled = true;
    pew.interface_plc = comId as Pew['interface_plc'];
    expect((await admin.post('/config/pew', pew)).status).toBe(200);
    // 2. a log file with the page's points and type
    const type = LOG_TYPES.indexOf(said(/\(type (\w+)\)/).toLowerCase() as (typeof LOG_TYPES)[number]);
    expect(type).toBeGreaterThanOrEqual(0);
    const points = [...EXAMPLE.matchAll(/`(\w+)` at DT(\d+)/g)].map((m) => ({ name: m[1]!, addr: m[2]! }));
    expect(points.length).toBe(2);
    const fileName = said(/name `(\w+)`, interface COM\d/);
    const records = points.map(
      (p, j): LogRecord => ({
        ...(v.getDefaults(recordSchema) as LogRecord),
        id: j + 1,
        name: p.name,
        if: comId as LogRecord['if'],
        area: 1,
        reg_addr: p.addr,
        type: 0,
      }),
    );
    const log = (await admin.get('/config/pew_log')).body as Log;
    log.log_def = [{ ...(v.getDefaults(logFileSchema) as LogFile), id: 1, name: fileName, interface: comId as LogFile['interface'], records }];
    const savedLog = await admin.post('/config/pew_log', log);
    expect(savedLog.status, savedLog.text).toBe(200);
    // 3. the broker and the Sparkplug B part
    const mqtt = (await admin.get('/config/pew_mqtt')).body as Mqtt;
    const group = said(/\*Group ID\* `([^`]+)`/);
    const edge = said(/\*Edge node ID\* `([^`]+)`/);
    Object.assign(mqtt, {
      broker_addr: said(/\*Broker address\* `([^`]+)`/).replaceAll(PAGE_PORT, port),
      sparkplug_enable: true,
      sparkplug_group_id: group,
      sparkplug_edge_node_id: edge,
    });
    const savedMqtt = await admin.post('/config/pew_mqtt', mqtt);
    expect(savedMqtt.status, savedMqtt.text).toBe(200);

    const births = promised.slice(0, 2);
    expect(births).toEqual([`spBv1.0/${group}/NBIRTH/${edge}`, `spBv1.0/${group}/DBIRTH/${edge}/${com}`]);
    await until(() => printed().length >= 2, 20_000, 'the births at mosquitto_sub');
    expect(printed()).toEqual(births);

    const dbirth = await host.next('DBIRTH');
    const names = [...EXAMPLE.matchAll(/`([\w/]+)` \(alias (\d+)\)/g)].map((m) => [m[1], Number(m[2])]);
    expect(names).toEqual(points.map((p, i) => [`${fileName}/${p.name}`, i + 1]));
    expect(dbirth.payload.metrics!.map((m) => [m.name, Number(big(m.alias)), m.type])).toEqual(
      names.map(([n, a]) => [n, a, said(/as (Int16) with their values/)]),
    );

    const [, bdSeq, seq, metrics] = /bdSeq (\d+) · seq (\d+) · (\d+) metrics/.exec(EXAMPLE) ?? [];
    await until(async () => (await status()).state === 'online', 10_000, 'status online');
    expect(EXAMPLE).toContain(`"${en_status.sparkplug.label}: ${en_status.sparkplug.states.online} · bdSeq`);
    expect(await status()).toMatchObject({ state: 'online', bdSeq: Number(bdSeq), seq: Number(seq), metrics: Number(metrics) });
  });

  it('`npm run plc -- write` as typed: the change arrives as DDATA by its alias only', async () => {
    const write = line('npm run plc -- write');
    const [, , addr, value] = /write (COM\d) DT(\d+) (\d+)/.exec(write)!;
    await run('sh', ['-c', write], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    const ddata = promised[2]!;
    expect(ddata).toMatch(/\/DDATA\//);
    await until(() => printed().length >= 3, 20_000, 'DDATA at mosquitto_sub');
    expect(printed()[2]).toBe(ddata);
    const got = await host.next('DDATA');
    const alias = Number(said(/`[\w/]+` \(alias (\d+)\)/)); // Line1/Level, at the address written
    expect(addr).toBe('100');
    expect(got.payload.metrics!.map((m) => [m.name, Number(big(m.alias)), m.value])).toEqual([[undefined, alias, Number(value)]]);
  });

  it('unticking the edge node and saving: NDEATH', async () => {
    const mqtt = (await admin.get('/config/pew_mqtt')).body as Mqtt;
    expect((await admin.post('/config/pew_mqtt', { ...mqtt, sparkplug_enable: false })).status).toBe(200);
    const ndeath = promised[3]!;
    expect(ndeath).toMatch(/\/NDEATH\//);
    await until(() => printed().length >= 4, 20_000, 'NDEATH at mosquitto_sub');
    expect(printed()).toEqual(promised);
  });
});
