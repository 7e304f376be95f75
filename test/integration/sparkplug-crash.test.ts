// The Sparkplug B edge node under kill -9: a daemon in a child process (its COM1 a pseudo-terminal
// with a virtual FP-XH) is born on Debian's mosquitto, then killed with SIGKILL. The host application
// (Tahu's decoder) gets the will, NDEATH with the bdSeq of the NBIRTH before it; a new daemon on the
// same data folder births with the next bdSeq, kept on the unit's storage across the kill. Then the
// values kept while the primary host is not online (store-and-forward): on storage before the kill,
// replayed as historical DDATA after the next start's births.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Log } from '../../device/model/sections/log.ts';
import { JobQueue } from '../../device/service-runtime/queue.ts';
import { type HistoryJob, isHistoryJob } from '../../device/sparkplug/history.ts';
import { ADMIN, Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort } from '../support/ports.ts';
import { serviceEntry } from '../support/service-status.ts';
import { logDefaults, logFile, type PlcLine, record, startLine, until } from './logger-rig.ts';
import { type Broker, COM1, publish, startBroker, startMqttRig } from './mqtt-rig.ts';
import { big, Host, metricBig } from './sparkplug-host.ts';

let line: PlcLine | undefined;
let broker: Broker | undefined;
let host: Host | undefined;
let child: ChildProcess | undefined;
let d2: TestDaemon | undefined;
let dataDir: string | undefined;
let port: number;
const fixture = fileURLToPath(new URL('../fixtures/daemon-child-pty.ts', import.meta.url));

/**
 * The address the child daemon prints once it listens ("ready <url>", test/fixtures/daemon-child-pty.ts);
 * its output is read on to the end (a pipe left unread would fill, one closed would fail its writes).
 */
function readyUrl(c: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    c.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const m = /^ready (\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    c.once('exit', () => reject(new Error(`the child daemon ended before it was ready: ${out}`)));
  });
}

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await d2?.stop();
  await host?.stop();
  await broker?.stop();
  await line?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('Sparkplug B edge node under kill -9', () => {
  it('the will reaches the host as NDEATH with the bdSeq of the last NBIRTH; the next start births with bdSeq + 1 (payloads-ndeath-will-message, payloads-ndeath-bdseq, topics-nbirth-bdseq-increment)', async () => {
    line = await startLine([1]);
    const plc = line.plcs.get(1)!;
    plc.memory.writeWords('DT', 100, [4321]);
    dataDir = await mkdtemp(join(tmpdir(), 'sparkplug-crash-'));
    port = await freePort();
    broker = await startBroker(port);
    host = await Host.start(port);
    // the settings, saved by a first daemon on the data folder (its session: NBIRTH and NDEATH with bdSeq 0)
    const setup = await startMqttRig({ dataDir, pty: line.pty.hostPath, plc });
    const log: Log = {
      ...logDefaults(),
      log_def: [logFile({ id: 1, name: 'Line1', interface: COM1, trigger: 0, records: [record({ id: 1, name: 'Level', if: COM1, reg_addr: '100' })] })],
    };
    expect((await setup.admin.post('/config/pew_log', log)).status).toBe(200);
    await setup.saveMqtt({
      broker_addr: `mqtt://127.0.0.1:${port}`,
      enable_mqtt: false,
      sparkplug_enable: true,
      sparkplug_group_id: 'G',
      sparkplug_edge_node_id: 'E',
      sparkplug_poll: 0.2,
    });
    const dbirth = await host.next('DBIRTH');
    await setup.d.stop();
    // the daemon's stop publishes NDEATH (its timestamp after the births: no will)
    const stopped = await host.next('NDEATH');
    expect(metricBig(stopped.payload, 'bdSeq')).toBe(0n);
    expect(big(stopped.payload.timestamp)).toBeGreaterThanOrEqual(big(dbirth.payload.timestamp));

    const from = host.seen.length;
    child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir, line.pty.hostPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    const nbirth = await host.next('NBIRTH', from, 1, 60_000);
    expect(metricBig(nbirth.payload, 'bdSeq')).toBe(1n);
    expect((await host.next('DBIRTH', from)).payload.metrics!.map((m) => [m.name, m.value])).toEqual([['Line1/Level', 4321]]);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const will = await host.next('NDEATH', from);
    expect(will).toMatchObject({ topic: 'spBv1.0/G/NDEATH/E', qos: 1, retain: false });
    expect(metricBig(will.payload, 'bdSeq')).toBe(1n);

    const again = host.seen.length;
    d2 = await startTestDaemon({ dataDir, serial: { serialMap: { COM1: line.pty.hostPath } } });
    const reborn = await host.next('NBIRTH', again, 1, 60_000);
    expect([Number(big(reborn.payload.seq)), metricBig(reborn.payload, 'bdSeq')]).toEqual([0, 2n]);
  }, 180_000);

  it('store-and-forward: the values kept while the primary host is not online are on storage when the daemon is killed (kill -9); after the next start and the host online they come as DDATA with is_historical after NBIRTH and DBIRTH, in order, with their read times', async () => {
    const plc = line!.plcs.get(1)!;
    const admin = await d2!.admin();
    const m = (await admin.get('/config/pew_mqtt')).body as Record<string, unknown>;
    expect((await admin.post('/config/pew_mqtt', { ...m, sparkplug_primary_host_id: 'scada9' })).status).toBe(200);
    await d2!.ctx.services.settled();
    await d2!.stop();
    d2 = undefined;
    const queue = join(dataDir!, 'queues', 'sparkplug');
    const jobs = () => readdirSync(queue).filter((f) => f.endsWith('.job'));
    expect(jobs()).toEqual([]);
    const before = host!.seen.length;

    // a daemon waiting for the host keeps a job for each pass with a change: a new value on every check
    child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir!, line!.pty.hostPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    // and is connected to the broker, waiting for the host, when it is killed: the broker sends a
    // will only for a connection it had (on a busy machine the jobs came before the connection)
    const childAdmin = await new Client(await readyUrl(child)).login(ADMIN);
    const state = async () => (await serviceEntry(childAdmin, 'mqtt')).sparkplug?.state;
    let level = 5000;
    await until(
      async () => {
        plc.memory.writeWords('DT', 100, [++level]);
        return jobs().length >= 3 && (await state()) === 'awaiting_host';
      },
      60_000,
      'three jobs on storage, the child connected and waiting for the host',
    );
    const killedAt = host!.seen.length;
    child.kill('SIGKILL');
    await once(child, 'exit');
    // the broker sends the killed one's will when it finds the connection gone: in before the next start
    await host!.next('NDEATH', killedAt, 1, 60_000);
    const kept = jobs()
      .sort()
      .map((f) => JSON.parse(readFileSync(join(queue, f), 'utf8')) as { t: number; m: [string, number][] });
    expect(kept.length).toBeGreaterThanOrEqual(3);
    expect(kept.every((j) => j.m.length === 1 && j.m[0]![0] === '1/1')).toBe(true);
    // nothing but deaths (the stopped daemon's NDEATH, the killed one's will) while the host was not online
    expect(host!.seen.slice(before).filter((x) => x.type !== 'NDEATH')).toEqual([]);
    const from = host!.seen.length;

    await publish(port, 'spBv1.0/STATE/scada9', JSON.stringify({ online: true, timestamp: 1 }), { retain: true });
    d2 = await startTestDaemon({ dataDir: dataDir!, serial: { serialMap: { COM1: line!.pty.hostPath } } });
    await host!.next('DDATA', from, kept.length, 60_000);
    const seen = host!.seen.slice(from);
    expect(seen.slice(0, 2 + kept.length).map((s) => s.type)).toEqual(['NBIRTH', 'DBIRTH', ...kept.map(() => 'DDATA')]);
    expect(seen[1]!.payload.metrics!.map((x) => [x.name, x.value])).toEqual([['Line1/Level', level]]);
    expect(
      seen.slice(2, 2 + kept.length).map((d) => d.payload.metrics!.map((x) => [Number(big(x.alias)), x.isHistorical, x.value, Number(big(x.timestamp))])),
    ).toEqual(kept.map((j) => [[1, true, j.m[0]![1], j.t]]));
    await until(() => jobs().length === 0, 10_000, 'the jobs acknowledged');
    await publish(port, 'spBv1.0/STATE/scada9', '', { retain: true });
  }, 180_000);

  it('seq wraps from 255 to 0 across the messages the host receives (payloads-sequence-num-incrementing, payloads-sequence-num-zero-nbirth): 300 values kept on storage, replayed after the births', async () => {
    await d2!.stop();
    d2 = undefined;
    // the values a long wait for the host would have kept, written as the edge node writes them
    const queue = await JobQueue.open<HistoryJob>(join(dataDir!, 'queues', 'sparkplug'), { accept: isHistoryJob });
    const t0 = Date.now() - 600_000;
    for (let i = 0; i < 300; i++) await queue.push({ t: t0 + i * 1000, m: [['1/1', 7000 + i]] });
    await queue.close();
    const from = host!.seen.length;
    await publish(port, 'spBv1.0/STATE/scada9', JSON.stringify({ online: true, timestamp: 2 }), { retain: true });
    d2 = await startTestDaemon({ dataDir: dataDir!, serial: { serialMap: { COM1: line!.pty.hostPath } } });
    await host!.next('DDATA', from, 300, 120_000);
    const seen = host!.seen.slice(from).filter((x) => x.type !== 'NDEATH');
    expect(seen.slice(0, 2).map((x) => x.type)).toEqual(['NBIRTH', 'DBIRTH']);
    const seqs = seen.slice(0, 302).map((x) => Number(big(x.payload.seq)));
    expect(seqs[0]).toBe(0);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i], `message ${i}`).toBe((seqs[i - 1]! + 1) % 256);
    expect(seqs.slice(254, 259)).toEqual([254, 255, 0, 1, 2]);
    expect(seen.slice(2, 302).map((d) => d.payload.metrics!.map((x) => [x.isHistorical, x.value]))).toEqual(
      Array.from({ length: 300 }, (_, i) => [[true, 7000 + i]]),
    );
    await publish(port, 'spBv1.0/STATE/scada9', '', { retain: true });
  }, 180_000);
});
