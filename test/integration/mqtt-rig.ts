// What the MQTT engine tests share: Debian's mosquitto (test/support/mosquitto.ts); a virtual FP-XH PLC on COM1 (the service control
// interface) whose MQTT control block is played through sim/plc/blocks.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { MQTT_BLOCK } from '../../device/model/blocks/mqtt.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Mqtt, pew_mqtt } from '../../device/model/sections/mqtt.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { COM1, com1AsControlInterface } from '../support/control-interface.ts';
import { type Client, startTestDaemon, type TestDaemon, type TestDaemonOptions } from '../support/daemon.ts';
import { FRAMING, until } from './logger-rig.ts';

export { COM1 };
export const MQTT_DT = 260; // spec §9: MQTT control register default

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
  com1AsControlInterface(pew, FRAMING);
  const r = await admin.post('/config/pew', pew);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
  await until(() => d.ctx.com.links.get(COM1)?.status().state === 'up', 15_000, 'COM1 up');
  return {
    ...mqttPlcSide(plc),
    d,
    admin,
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

export { type Arrival, type Broker, publish, type Subscriber, startBroker, subscribe } from '../support/mosquitto.ts';
export { sleep };
