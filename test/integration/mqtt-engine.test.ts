// The MQTT engine (device/mqtt; spec §3 pew_mqtt, §9 MQTT block of 34 words at DT260) against
// Debian's mosquitto started by the test, with a virtual FP-XH on COM1 whose control block is set
// through the simulator's block helper (sim/plc/blocks.ts): what arrives at the broker (topic,
// payload bytes, QoS, retain), what a subscription writes into PLC memory, refused requests, and
// the queue while the broker is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { MQTT_CONNECTION } from '../../device/model/blocks/mqtt.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { getBytes } from '../../sim/plc/blocks.ts';
import { freePort } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { type Broker, type MqttRig, plcPublish, publish, startBroker, startMqttRig, subscribe } from './mqtt-rig.ts';

let rig: MqttRig;
let broker: Broker | undefined;
let port: number;

beforeAll(async () => {
  port = await freePort();
  broker = await startBroker(port);
  rig = await startMqttRig();
  await rig.saveMqtt({ broker_addr: `mqtt://127.0.0.1:${port}`, qos: 1 });
  await until(() => rig.block().connection === MQTT_CONNECTION.connected, 20_000, 'connected to the broker');
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  await broker?.stop();
});

const status = async () => ((await rig.admin.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === 'mqtt')!;

describe('MQTT engine', () => {
  it('a PLC publish arrives with its topic, payload bytes, QoS and retain', async () => {
    const sub = await subscribe(port, 'plant/#');
    const payload = Uint8Array.from([0x7b, 0x22, 0x00, 0xff, 0x0d, 0x0a, 0x41]); // NUL, 0xFF, CR LF kept
    await plcPublish(rig, 'plant/tank1/level', payload, { qos: 1, retain: 1 });
    await until(() => sub.got.length === 1, 10_000, 'message at the subscriber');
    expect(sub.got[0]).toMatchObject({ topic: 'plant/tank1/level', qos: 1 });
    expect([...sub.got[0]!.payload]).toEqual([...payload]);
    await until(() => rig.block().counter === 1, 10_000, 'counter 1');
    expect(rig.block(), JSON.stringify(rig.block())).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0, connection: MQTT_CONNECTION.connected });
    // retained: a subscriber that comes later gets it with the retain flag
    const late = await subscribe(port, 'plant/tank1/level', { count: 1 });
    await until(() => late.got.length === 1, 10_000, 'retained message');
    expect(late.got[0]).toMatchObject({ topic: 'plant/tank1/level', retain: true });
    expect([...late.got[0]!.payload]).toEqual([...payload]);
    await late.stop();
    // QoS 0 and 2 as asked, in order
    await plcPublish(rig, 'plant/q0', 'zero', { qos: 0 });
    await plcPublish(rig, 'plant/q2', 'two', { qos: 2 });
    await until(() => sub.got.length === 3, 10_000, 'two more messages');
    expect(sub.got.slice(1).map((a) => [a.topic, a.qos, a.payload.toString()])).toEqual([
      ['plant/q0', 0, 'zero'],
      ['plant/q2', 2, 'two'],
    ]);
    await sub.stop();
    // a QoS 2 message reaches the subscriber before the broker's PUBREC and PUBCOMP reach the engine,
    // which counts it published only then
    await expect.poll(async () => (await status()).counters.published).toBe(3);
    const s = await status();
    expect(s).toMatchObject({ enabled: true, state: 'connected', queue: { waiting: 0, dropped: 0 } });
    expect(s.plc).toBeUndefined(); // the control block is read
    expect(s.counters.published).toBe(3);
    expect(s.lastSuccess).toBeGreaterThan(0);
  });

  it('a message on a subscribed topic lands in the PLC area with its count and length; a longer one is cut to the area', async () => {
    const tlen = rig.put(1200, 'cmd/+/setpoint');
    rig.set({ sub1_topic_addr: 1200, sub1_topic_len: tlen, sub1_area_addr: 1300, sub1_area_size: 16 });
    // subscribed once the next poll saw it: a message published before may be missed, so repeat until one lands
    await until(
      async () => {
        await publish(port, 'cmd/pump1/setpoint', 'hello world 123');
        return (rig.block().sub1_count ?? 0) >= 1;
      },
      15_000,
      'first message in the PLC',
    );
    // the loop's messages have all landed once one published after them has: the broker keeps the
    // order, the engine writes them one after the other (its length, written with the count, tells)
    await publish(port, 'cmd/pump1/setpoint', 'hello world 1234');
    await until(() => rig.block().sub1_length === 16, 10_000, 'the message after the loop');
    const first = rig.block().sub1_count!;
    expect(Buffer.from(getBytes(rig.plc.memory, 1300, 16)).toString()).toBe('hello world 1234');
    rig.plc.memory.writeWords('DT', 1308, [0x5a5a]); // the word after the 16-byte area
    await publish(port, 'cmd/pump2/setpoint', 'a message longer than sixteen bytes');
    await until(() => rig.block().sub1_count === first + 1, 10_000, 'second message');
    expect(rig.block().sub1_length).toBe(35);
    expect(Buffer.from(getBytes(rig.plc.memory, 1300, 16)).toString()).toBe('a message longer');
    expect(rig.plc.memory.readWords('DT', 1308, 1)).toEqual([0x5a5a]); // beyond the area: untouched
    // a topic that matches no filter changes nothing
    await publish(port, 'cmd/pump1/other', 'x');
    await publish(port, 'cmd/pump1/setpoint', 'ok');
    await until(() => rig.block().sub1_count === first + 2, 10_000, 'third message');
    expect(rig.block().sub1_length).toBe(2);
    expect(rig.block().sub_error).toBe(0);
    rig.set({ sub1_topic_addr: 0 });
  });

  it('refuses a pointer outside the PLC, a string too long or without NUL, a payload over the bound, a bad QoS: error code, nothing sent, still running', async () => {
    const sub = await subscribe(port, '#');
    const refused = async (values: Record<string, number>, code: number) => {
      const before = rig.block().counter!;
      rig.set({ topic_addr: 1000, topic_len: rig.put(1000, 'plant/x'), payload_addr: 1100, payload_len: 1, qos: 1, retain: 0, ...values, request: 1 });
      await until(() => rig.block().counter === ((before + 1) & 0xffff), 10_000, `refusal ${code}`);
      expect(rig.block(), JSON.stringify((await status()).lastError)).toMatchObject({ request: 0, state: STATE.error, error: code });
    };
    await refused({ topic_addr: 65_530, topic_len: 10 }, SERVICE_ERROR.plc_area); // the FP-XH ends at DT65532
    await refused({ payload_addr: 65_532, payload_len: 10 }, SERVICE_ERROR.plc_area);
    await refused({ topic_len: 300 }, SERVICE_ERROR.bad_string);
    rig.plc.memory.writeWords(
      'DT',
      1400,
      Array.from({ length: 128 }, () => 0x4141),
    ); // 256 bytes, no NUL
    await refused({ topic_addr: 1400, topic_len: 0 }, SERVICE_ERROR.bad_string);
    await refused({ topic_addr: 1600, topic_len: rig.put(1600, 'plant/#') }, SERVICE_ERROR.bad_string); // a wildcard is no topic to publish to
    await refused({ payload_len: 2049 }, SERVICE_ERROR.too_large);
    await refused({ qos: 3 }, SERVICE_ERROR.bad_request);
    await refused({ retain: 2 }, SERVICE_ERROR.bad_request);
    // a NUL-terminated topic (length 0) is taken up to its NUL
    rig.put(1500, 'plant/after\0');
    rig.put(1100, 'ok');
    rig.set({ topic_addr: 1500, topic_len: 0, payload_addr: 1100, payload_len: 2, qos: 1, retain: 0, request: 1 });
    await until(() => sub.got.some((a) => a.topic === 'plant/after'), 10_000, 'the good publish after the refusals');
    expect(sub.got.filter((a) => a.topic !== 'plant/after' && !a.retain).map((a) => a.topic)).toEqual([]); // retained: test 1's
    await sub.stop();
    expect((await status()).lastError).toMatchObject({ code: 'bad_request', number: SERVICE_ERROR.bad_request });
  });

  it('broker stopped: publishes wait in the queue (visible in the block and the status); broker back: all arrive in order', async () => {
    await broker!.stop();
    broker = undefined;
    await until(() => rig.block().connection === MQTT_CONNECTION.reconnecting, 15_000, 'connection lost');
    for (let i = 1; i <= 20; i++) await plcPublish(rig, 'plant/queued', `m${i}`, { qos: 1 });
    await until(() => rig.block().queue_waiting === 20, 10_000, '20 waiting');
    expect(rig.block()).toMatchObject({ state: STATE.waiting, error: SERVICE_ERROR.not_connected });
    const s = await status();
    expect(s).toMatchObject({ state: 'waiting', queue: { waiting: 20 } });
    broker = await startBroker(port);
    const sub = await subscribe(port, 'plant/queued');
    // back-off is at most 30 s between attempts
    await until(() => sub.got.length === 20, 60_000, 'the queued publishes');
    expect(sub.got.map((a) => a.payload.toString())).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}`));
    // the block's words are written one after the other: the queue's count may be 0 a moment before the state
    await until(() => rig.block().queue_waiting === 0 && rig.block().state === STATE.done, 10_000, 'queue empty');
    expect(rig.block()).toMatchObject({ state: STATE.done, error: 0, connection: MQTT_CONNECTION.connected });
    await sub.stop();
  }, 120_000);
});
