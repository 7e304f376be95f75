// The MQTT engine's transports and connection life (device/mqtt; spec §3 pew_mqtt; docs/services.md
// "MQTT") against one Debian mosquitto started by the test with three listeners: plain MQTT (where
// mosquitto_sub watches), MQTT over TLS with a certificate signed by a CA made by openssl here, and
// MQTT over WebSocket (`protocol websockets`). With a virtual FP-XH on COM1 playing the PLC:
// - mqtts: with the uploaded CA a PLC publish arrives; without it (verification on) the broker's
//   certificate is refused with error code tls and nothing connects; `insecure` accepts it;
// - ws: a PLC publish arrives over WebSocket;
// - the birth/last-will status topic: "online" (retained) after the connect; when the unit's
//   connection is cut without a DISCONNECT, mosquitto_sub sees the will "offline"; after the
//   reconnect "online" again;
// - the back-off: while the broker is down (every connection closed at once), the attempts over a
//   window are few and their gaps grow (1 s, 2 s, 4 s …), no busy loop.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR } from '../../device/model/blocks/convention.ts';
import { MQTT_CONNECTION } from '../../device/model/blocks/mqtt.ts';
import { BACKOFF_FIRST_MS } from '../../device/mqtt/connection.ts';
import { certPath } from '../../device/system/cert-files.ts';
import { makeCertificates, waitListening } from '../support/openssl.ts';
import { freePorts, LOOPBACK } from '../support/ports.ts';
import { Relay } from '../support/relay.ts';
import { serviceEntry } from '../support/service-status.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, plcPublish, startMqttRig, subscribe } from './mqtt-rig.ts';

let rig: MqttRig;
let work: string;
let broker: ChildProcess;
const ports = { plain: 0, tls: 0, ws: 0 };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'mqtt-transports-'));
  const certs = await makeCertificates();
  [ports.plain, ports.tls, ports.ws] = (await freePorts(3)) as [number, number, number];
  await Promise.all([writeFile(join(work, 'server.pem'), certs.cert), writeFile(join(work, 'server.key'), certs.key)]);
  await writeFile(
    join(work, 'mosquitto.conf'),
    [
      'user root',
      'persistence false',
      'allow_anonymous true',
      'log_dest stderr',
      'log_type error',
      'per_listener_settings false',
      `listener ${ports.plain} ${LOOPBACK}`,
      `listener ${ports.tls} ${LOOPBACK}`,
      `certfile ${join(work, 'server.pem')}`,
      `keyfile ${join(work, 'server.key')}`,
      `listener ${ports.ws} ${LOOPBACK}`,
      'protocol websockets',
      '',
    ].join('\n'),
  );
  broker = spawn('mosquitto', ['-c', join(work, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  await Promise.all([waitListening(ports.plain), waitListening(ports.tls), waitListening(ports.ws)]);
  rig = await startMqttRig();
  const ca = certPath(rig.d.dataDir, 'pew_mqtt', 'ca.pem');
  await mkdir(join(ca, '..'), { recursive: true });
  await writeFile(ca, certs.ca);
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  if (broker && broker.exitCode === null) {
    broker.kill('SIGTERM');
    await once(broker, 'exit');
  }
  await rm(work, { recursive: true, force: true });
});

/**
 * Connected in the run of the last save: the status book went through off and connecting when the
 * save replaced the run (saveMqtt waits for that), so connected is this run's; the block's word
 * follows at the next poll.
 */
const connected = async (what: string) => {
  await until(async () => (await serviceEntry(rig.admin, 'mqtt')).state === 'connected', 20_000, what);
  await until(() => rig.block().connection === MQTT_CONNECTION.connected, 5_000, `${what} (block)`);
};

describe('MQTT engine: TLS, WebSocket, last will and back-off', () => {
  it('mqtts: with the uploaded CA a publish arrives; without it the certificate is refused (tls); insecure accepts it', async () => {
    const sub = await subscribe(ports.plain, 'tls/#');
    await rig.saveMqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: 'ca.pem', tls_version: '1.2', qos: 1 });
    await connected('connected over TLS');
    await plcPublish(rig, 'tls/verified', 'over TLS');
    await until(() => sub.got.length === 1, 10_000, 'the publish over TLS');
    expect(sub.got.map((a) => [a.topic, a.payload.toString()])).toEqual([['tls/verified', 'over TLS']]);

    // verification on, no CA: the test CA is no public one, so the handshake is refused
    await rig.saveMqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: '', insecure: false, qos: 1 });
    await until(async () => (await serviceEntry(rig.admin, 'mqtt')).lastError?.code === 'tls', 15_000, 'refused as tls');
    const refused = await serviceEntry(rig.admin, 'mqtt');
    expect(refused.lastError).toMatchObject({ code: 'tls', number: SERVICE_ERROR.tls });
    expect(refused.state).toMatch(/^(connecting|reconnecting)$/);
    expect(rig.block().connection).not.toBe(MQTT_CONNECTION.connected);

    // insecure: the same broker accepted without verification
    await rig.saveMqtt({ broker_addr: `mqtts://localhost:${ports.tls}`, ca: '', insecure: true, qos: 1 });
    await connected('connected over TLS without verification');
    await plcPublish(rig, 'tls/insecure', 'not verified');
    await until(() => sub.got.length === 2, 10_000, 'the publish without verification');
    expect(sub.got[1]!.topic).toBe('tls/insecure');
    await sub.stop();
  });

  it('ws: a PLC publish arrives over WebSocket', async () => {
    const sub = await subscribe(ports.plain, 'ws/#');
    await rig.saveMqtt({ broker_addr: `ws://${LOOPBACK}:${ports.ws}`, qos: 2 });
    await connected('connected over WebSocket');
    await plcPublish(rig, 'ws/level', '42.5', { qos: 2 });
    await until(() => sub.got.length === 1, 10_000, 'the publish over WebSocket');
    expect(sub.got[0]).toMatchObject({ topic: 'ws/level', qos: 2 });
    expect(sub.got[0]!.payload.toString()).toBe('42.5');
    await sub.stop();
  });

  it('birth and last will: "online" after the connect; the connection cut → mosquitto_sub sees "offline"; back → "online"', async () => {
    const relay = new Relay(ports.plain);
    await relay.listen();
    try {
      const topic = 'unit/pew-test/status';
      const len = rig.put(1200, topic);
      rig.set({ status_topic_addr: 1200, status_topic_len: len });
      const sub = await subscribe(ports.plain, topic);
      await rig.saveMqtt({ broker_addr: `mqtt://${LOOPBACK}:${relay.port}`, qos: 1 });
      await connected('connected through the relay');
      expect(relay.open.size).toBeGreaterThan(0);
      await until(() => sub.got.some((a) => a.payload.toString() === 'online'), 10_000, 'birth message');
      expect(sub.got.at(-1)).toMatchObject({ topic });
      const before = sub.got.length;

      relay.cut(); // no DISCONNECT: the broker publishes the will
      await until(() => sub.got.slice(before).some((a) => a.payload.toString() === 'offline'), 10_000, 'last will at the subscriber');
      // a subscriber that comes now gets the retained state
      await until(() => rig.block().connection === MQTT_CONNECTION.connected, 20_000, 'reconnected');
      const since = () => sub.got.slice(before).map((a) => a.payload.toString());
      await until(() => since().lastIndexOf('online') > since().indexOf('offline') && since().includes('offline'), 10_000, 'online again after the reconnect');
      const late = await subscribe(ports.plain, topic, { count: 1 });
      await until(() => late.got.length === 1, 10_000, 'retained status');
      expect(late.got[0]).toMatchObject({ topic, retain: true });
      expect(late.got[0]!.payload.toString()).toBe('online');
      await late.stop();
      await sub.stop();
      rig.set({ status_topic_addr: 0, status_topic_len: 0 });
    } finally {
      await relay.close();
    }
  });

  it('back-off: with the broker down the attempts are few and further apart each time; back up, it connects', async () => {
    const relay = new Relay(ports.plain);
    await relay.listen();
    try {
      await rig.saveMqtt({ broker_addr: `mqtt://${LOOPBACK}:${relay.port}`, qos: 1 });
      await connected('connected through the relay');
      expect(relay.open.size).toBeGreaterThan(0);
      relay.down = true;
      relay.cut();
      const windowMs = 7_500;
      await new Promise((r) => setTimeout(r, windowMs));
      const attempts = [...relay.attempts];
      // 1 s, 2 s, 4 s after the loss: 3 attempts in 7.5 s (4 on a slow start); a busy loop makes hundreds
      expect(attempts.length, `attempts at ${attempts.map((t) => Math.round(t - attempts[0]!)).join(', ')} ms`).toBeGreaterThanOrEqual(2);
      expect(attempts.length).toBeLessThanOrEqual(5);
      const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
      for (const g of gaps) expect(g).toBeGreaterThanOrEqual(BACKOFF_FIRST_MS * 0.9);
      for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThan(gaps[i - 1]! * 1.5);
      const s = await serviceEntry(rig.admin, 'mqtt');
      expect(s.state).toBe('reconnecting');
      expect(rig.block().connection).toBe(MQTT_CONNECTION.reconnecting);
      relay.down = false;
      await until(() => rig.block().connection === MQTT_CONNECTION.connected, 40_000, 'connected once the broker is back');
    } finally {
      await relay.close();
    }
  });
});
