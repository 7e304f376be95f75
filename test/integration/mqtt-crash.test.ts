// The MQTT engine under kill -9 (design/services.md "Nothing is lost on the way out"): a daemon in
// a child process delivers 10 publishes, then the broker (Debian mosquitto) stops and 20 more wait
// in the queue; the daemon is killed with SIGKILL. A new daemon on the same data folder and the
// same PLC (a virtual FP-XH on a pseudo-terminal at COM1) sends the 20 waiting ones, in order,
// once the broker is back, and none of the 10 delivered ones again.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MQTT_CONNECTION } from '../../device/model/blocks/mqtt.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort } from '../support/ports.ts';
import { type PlcLine, startLine, until } from './logger-rig.ts';
import { type Broker, mqttPlcSide, plcPublish, sleep, startBroker, startMqttRig, subscribe } from './mqtt-rig.ts';

let line: PlcLine | undefined;
let broker: Broker | undefined;
let child: ChildProcess | undefined;
let d2: TestDaemon | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await d2?.stop();
  await broker?.stop();
  await line?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('MQTT queue under kill -9', () => {
  it('after a kill with publishes waiting, the next start sends exactly those, in order', async () => {
    line = await startLine([1]);
    const plc = line.plcs.get(1)!;
    const side = mqttPlcSide(plc);
    dataDir = await mkdtemp(join(tmpdir(), 'mqtt-crash-'));
    const port = await freePort();
    broker = await startBroker(port);
    // the settings, saved by a first daemon on the data folder
    const setup = await startMqttRig({ dataDir, pty: line.pty.hostPath, plc });
    await setup.saveMqtt({ broker_addr: `mqtt://127.0.0.1:${port}`, qos: 1 });
    await setup.d.stop();

    const fixture = fileURLToPath(new URL('../fixtures/daemon-child-pty.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir, line.pty.hostPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    await until(() => side.block().connection === MQTT_CONNECTION.connected, 60_000, 'the child daemon connected');
    const sub = await subscribe(port, 'plant/#');
    for (let i = 1; i <= 10; i++) await plcPublish(side, 'plant/crash', `m${i}`, { qos: 1 });
    await until(() => sub.got.length === 10 && side.block().queue_waiting === 0 && side.block().counter === 10, 20_000, '10 delivered');
    await sub.stop();

    await broker.stop();
    broker = undefined;
    await until(() => side.block().connection === MQTT_CONNECTION.reconnecting, 20_000, 'broker gone');
    for (let i = 11; i <= 30; i++) await plcPublish(side, 'plant/crash', `m${i}`, { qos: 1 });
    await until(() => side.block().queue_waiting === 20, 10_000, '20 waiting');
    child.kill('SIGKILL');
    await once(child, 'exit');

    broker = await startBroker(port);
    const after = await subscribe(port, 'plant/#');
    d2 = await startTestDaemon({ dataDir, serial: { serialMap: { COM1: line.pty.hostPath } } });
    await until(() => after.got.length >= 20, 60_000, 'the waiting publishes');
    await sleep(1500); // anything sent twice would arrive now
    expect(after.got.map((a) => a.payload.toString())).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 11}`));
    await until(() => side.block().queue_waiting === 0, 10_000, 'queue empty after the restart');
    await after.stop();
  }, 180_000);
});
