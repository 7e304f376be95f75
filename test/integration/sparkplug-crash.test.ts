// The Sparkplug B edge node under kill -9: a daemon in a child process (its COM1 a pseudo-terminal
// with a virtual FP-XH) is born on Debian's mosquitto, then killed with SIGKILL. The host application
// (Tahu's decoder) gets the will, NDEATH with the bdSeq of the NBIRTH before it; a new daemon on the
// same data folder births with the next bdSeq, kept on the unit's storage across the kill.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Log } from '../../device/model/sections/log.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort } from '../support/ports.ts';
import { logDefaults, logFile, type PlcLine, record, startLine } from './logger-rig.ts';
import { type Broker, COM1, startBroker, startMqttRig } from './mqtt-rig.ts';
import { big, Host, metricBig } from './sparkplug-host.ts';

let line: PlcLine | undefined;
let broker: Broker | undefined;
let host: Host | undefined;
let child: ChildProcess | undefined;
let d2: TestDaemon | undefined;
let dataDir: string | undefined;

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
    const port = await freePort();
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

    const fixture = fileURLToPath(new URL('../fixtures/daemon-child-pty.ts', import.meta.url));
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
});
