// What the MQTT engine tests and the bench share: Debian's mosquitto started on a free port with a
// temp config (anonymous, no persistence), mosquitto_sub collecting what arrives (topic, QoS,
// retain, payload as hex), mosquitto_pub; a virtual FP-XH PLC on COM1 (the service control
// interface) whose MQTT control block is played through sim/plc/blocks.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { LOOPBACK } from '../support/ports.ts';
import { startTestDaemon, type Client, type TestDaemon, type TestDaemonOptions } from '../support/daemon.ts';
import { FRAMING, until } from './logger-rig.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { MQTT_BLOCK } from '../../device/model/blocks/mqtt.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_mqtt, type Mqtt } from '../../device/model/sections/mqtt.ts';
import type { Pew } from '../../device/model/sections/pew.ts';

export const COM1 = 0; // interface id of COM1 (device/com/links.ts CONNECTOR_OF)
export const MQTT_DT = 260; // spec §9: MQTT control register default

export interface Broker {
  port: number;
  stop(): Promise<void>;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, LOOPBACK);
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** mosquitto on `port` (127.0.0.1), anonymous, nothing kept on disk; resolves once it accepts connections. */
export async function startBroker(port: number): Promise<Broker> {
  const dir = await mkdtemp(join(tmpdir(), 'mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  await writeFile(conf, `listener ${port} ${LOOPBACK}\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n`);
  const p = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await until(() => accepts(port), 10_000, `mosquitto on ${port}`);
  return {
    port,
    stop: async () => {
      if (p.exitCode === null) {
        p.kill('SIGTERM');
        await once(p, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Arrival {
  topic: string;
  qos: number;
  retain: boolean;
  payload: Buffer;
}

export interface Subscriber {
  got: Arrival[];
  stop(): Promise<void>;
}

function parse(line: string): Arrival {
  const [topic, qos, retain, hex] = line.split('\t');
  return { topic: topic!, qos: Number(qos), retain: retain === '1', payload: Buffer.from(hex ?? '', 'hex') };
}

/** mosquitto_sub on `filter` at QoS 2; resolves once a marker published to `ready` came back (subscribed). */
export async function subscribe(port: number, filter: string, opts: { count?: number } = {}): Promise<Subscriber> {
  const args = ['-h', LOOPBACK, '-p', String(port), '-q', '2', '-t', filter, '-t', 'rig/ready', '-F', '%t\t%q\t%r\t%x', ...(opts.count ? ['-C', String(opts.count)] : [])];
  const p: ChildProcess = spawn('mosquitto_sub', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const got: Arrival[] = [];
  let ready = false;
  let rest = '';
  p.stdout!.on('data', (b: Buffer) => {
    const lines = (rest + b.toString()).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const a = parse(l);
      if (a.topic === 'rig/ready') ready = true;
      else got.push(a);
    }
  });
  if (!opts.count) {
    await until(async () => { if (!ready) await publish(port, 'rig/ready', 'x'); return ready; }, 10_000, 'mosquitto_sub subscribed');
  }
  return {
    got,
    stop: async () => {
      if (p.exitCode === null) {
        p.kill('SIGTERM');
        await once(p, 'exit');
      }
    },
  };
}

/** mosquitto_pub of one message. */
export async function publish(port: number, topic: string, message: string, opts: { qos?: number; retain?: boolean } = {}): Promise<void> {
  const p = spawn('mosquitto_pub', ['-h', LOOPBACK, '-p', String(port), '-t', topic, '-m', message, '-q', String(opts.qos ?? 1), ...(opts.retain ? ['-r'] : [])], { stdio: 'ignore' });
  const [code] = await once(p, 'exit') as [number];
  if (code !== 0) throw new Error(`mosquitto_pub exited with ${code}`);
}

/** The PLC side of the MQTT block (DT260) on a virtual PLC's memory. */
export interface MqttPlcSide {
  plc: VirtualPlc;
  /** the MQTT block's words by name */
  block(): Record<string, number>;
  set(values: Readonly<Record<string, number>>): void;
  /** places a text in PLC memory, answers its length in bytes */
  put(addr: number, data: string | Uint8Array): number;
}

export function mqttPlcSide(plc: VirtualPlc): MqttPlcSide {
  return {
    plc,
    block: () => readBlock(plc.memory, MQTT_BLOCK, MQTT_DT),
    set: (values) => setBlock(plc.memory, MQTT_BLOCK, MQTT_DT, values),
    put: (addr, data) => putBytes(plc.memory, addr, data),
  };
}

export interface MqttRig extends MqttPlcSide {
  d: TestDaemon;
  admin: Client;
  saveMqtt(over: Partial<Mqtt>): Promise<void>;
}

/**
 * A daemon whose COM1 holds a virtual FP-XH (station 1) as the service control interface: in
 * process, or the PLC of a pseudo-terminal line (`opts.pty`, `opts.plc`).
 */
export async function startMqttRig(opts: Pick<TestDaemonOptions, 'dataDir'> & { pty?: string; plc?: VirtualPlc } = {}): Promise<MqttRig> {
  const plc = opts.plc ?? new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
  const serial = opts.pty ? { serialMap: { COM1: opts.pty } } : { virtualPorts: { COM1: (s: Parameters<typeof wire.open>[0]) => wire.open(s) } };
  const d = await startTestDaemon({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), serial });
  const admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces.find((i) => i.id === COM1)!, {
    enabled: true, mode: 1, protocol: 'MEWTOCOL', baudrate: FRAMING.baud, bits: FRAMING.bits, parity: FRAMING.parity, stopbits: FRAMING.stopbits, timeout: 300, autobaud: false,
  });
  Object.assign(pew, { interface_plc: COM1, address_plc: 1 });
  const r = await admin.post('/config/pew', pew);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await until(() => d.ctx.com.links.get(COM1)?.status().state === 'up', 15_000, 'COM1 up');
  return {
    ...mqttPlcSide(plc), d, admin,
    saveMqtt: async (over) => {
      const res = await admin.post('/config/pew_mqtt', { ...defaultsOf(pew_mqtt), enable_mqtt: true, plc_poll: 0.2, ...over } satisfies Mqtt);
      expect(res.status, res.text).toBe(200);
      await d.ctx.services.settled();
    },
  };
}

/** The PLC asks for one publish and waits until the unit took it (request word back to 0). */
export async function plcPublish(rig: MqttPlcSide, topic: string, payload: string | Uint8Array, opts: { qos?: number; retain?: number } = {}): Promise<void> {
  const tlen = rig.put(1000, topic);
  const plen = rig.put(1100, payload);
  rig.set({ topic_addr: 1000, topic_len: tlen, payload_addr: 1100, payload_len: plen, qos: opts.qos ?? 1, retain: opts.retain ?? 0, request: 1 });
  await until(() => rig.block().request === 0, 15_000, 'publish request taken');
}

export { sleep };
