// The connection test of the MQTT client (spec §3 pew_mqtt; device/model/servicetest.ts) on the
// saved settings: TCP to the broker, the TLS handshake (mqtts, wss, or a minimum TLS version set),
// the MQTT login, then one test message published to a test topic and received back through a
// subscription (write, read). Certificates come from the section's uploaded files.

import { randomBytes } from 'node:crypto';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Mqtt } from '../model/sections/mqtt.ts';
import { type ServiceTestResult, testNote } from '../model/servicetest.ts';
import { readCert } from '../system/cert-files.ts';
import { drivers } from './drivers.ts';
import { minTlsVersion, probeTls, type TlsTrust, tcpConnect, tlsOptions, trustNote } from './net-probe.ts';
import { failureNote, runTest, StepFailure, type TestRun } from './test-run.ts';

const DEFAULT_PORTS = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 } as const;
type Scheme = keyof typeof DEFAULT_PORTS;

export interface BrokerTarget {
  scheme: Scheme;
  host: string;
  port: number;
  tls: boolean;
  /** the URL the client connects to */
  url: string;
}

/**
 * Where the broker is: the scheme of broker_addr, else mqtt; TLS when the scheme says so (mqtts,
 * wss) or a minimum TLS version is chosen (the same reading as the "no encryption" warning of
 * device/model/warnings.ts), the port from the address or the scheme's default.
 */
export function brokerTarget(m: Pick<Mqtt, 'broker_addr' | 'tls_version'>): BrokerTarget {
  const match = /^(?:(mqtts?|wss?):\/\/)?([^:/\s]+)(?::(\d{1,5}))?\/?$/.exec(m.broker_addr);
  if (!match) throw new RangeError(`not a broker address: ${m.broker_addr}`);
  const given = (match[1] ?? 'mqtt') as Scheme;
  const tls = given === 'mqtts' || given === 'wss' || m.tls_version !== 'none';
  const scheme: Scheme = given.startsWith('ws') ? (tls ? 'wss' : 'ws') : tls ? 'mqtts' : 'mqtt';
  const host = match[2]!;
  const port = match[3] ? Number(match[3]) : DEFAULT_PORTS[scheme];
  return { scheme, host, port, tls, url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** The TLS settings of the section: its uploaded CA, client certificate and key, `insecure`, the minimum version. */
export async function mqttTrust(m: Mqtt, dataDir: string): Promise<TlsTrust> {
  const [ca, cert, key] = await Promise.all([
    readCert(dataDir, 'pew_mqtt', m.ca),
    readCert(dataDir, 'pew_mqtt', m.client),
    readCert(dataDir, 'pew_mqtt', m.key),
  ]);
  const minVersion = minTlsVersion(m.tls_version);
  return { verify: !m.insecure, ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(minVersion ? { minVersion } : {}) };
}

/** A connected client, or the broker's refusal (CONNACK return code) as the error. */
async function connectClient(target: BrokerTarget, opts: IClientOptions): Promise<MqttClient> {
  const mqtt = await drivers.mqtt();
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(target.url, { ...opts, reconnectPeriod: 0 });
    // only this function's own listeners come off again: the client has listeners of its own
    const ignore = () => {};
    client.on('error', ignore);
    const settle = () => {
      client.off('connect', onConnect);
      client.off('error', onError);
      client.off('close', onClose);
    };
    const fail = (e: Error) => {
      settle();
      client.end(true);
      reject(e);
    };
    const onConnect = () => {
      settle();
      resolve(client);
    };
    const onError = (e: Error) => {
      const rc = (e as { code?: unknown }).code;
      // MQTT 3.1.1 CONNACK 4 "bad user name or password", 5 "not authorized"; MQTT 5 134, 135
      if (rc === 4 || rc === 5 || rc === 134 || rc === 135) fail(new StepFailure('auth_failed', e.message));
      // the client's own connectTimeout: a broker that took the connection and never sent its CONNACK
      else if (/connack timeout/i.test(e.message)) fail(new StepFailure('timeout', e.message));
      else fail(e);
    };
    const onClose = () => fail(failureNote('bad_reply', testNote('broker_closed_login'), 'the broker closed the connection without accepting the login'));
    client.on('connect', onConnect);
    client.on('error', onError);
    client.on('close', onClose);
  });
}

/** Subscribes to a fresh test topic, publishes one message and waits for it to come back. */
async function roundTrip(client: MqttClient, qos: Mqtt['qos'], t: TestRun): Promise<void> {
  // a fresh topic on a clean session: nothing is left on the broker once the client is gone
  const topic = `pew/connection-test/${randomBytes(6).toString('hex')}`;
  const payload = `connection test ${new Date().toISOString()}`;
  const received = new Promise<string>((resolve) => {
    client.on('message', (tp, msg) => {
      if (tp === topic) resolve(msg.toString());
    });
  });
  await t.step(
    'write',
    async () => {
      const granted = await client.subscribeAsync(topic, { qos });
      const g = granted[0]?.qos;
      // SUBACK 128 (MQTT 5: 0x80 and above): the broker refused the subscription
      if (g === undefined || g >= 128)
        throw failureNote(
          'auth_failed',
          testNote('subscription_refused', { topic, code: g ?? '–' }),
          `the broker refused the subscription to ${topic} (SUBACK ${g ?? 'missing'})`,
        );
      await client.publishAsync(topic, payload, { qos, retain: false });
    },
    { note: () => testNote('published', { topic, qos }) },
  );
  await t.step(
    'read',
    async () => {
      const got = await received;
      if (got !== payload) throw failureNote('bad_reply', testNote('received_other', { got, sent: payload }), `received "${got}" instead of "${payload}"`);
      return got;
    },
    { ms: 5000, note: (got) => testNote('received', { bytes: Buffer.byteLength(got) }) },
  );
}

export async function testMqtt(m: Mqtt, dataDir: string): Promise<ServiceTestResult> {
  const target = brokerTarget(m);
  const trust = target.tls ? await mqttTrust(m, dataDir) : undefined;
  return runTest(target.url, async (t) => {
    await t.step('connect', async () => (await tcpConnect(target.host, target.port)).destroy(), {
      note: () => testNote('reached', { address: `${target.host}:${target.port}` }),
    });
    if (trust) await t.step('tls', () => probeTls(target.host, target.port, trust), { note: (d) => trustNote(d, trust) });
    const opts: IClientOptions = {
      clientId: `pew-test-${randomBytes(4).toString('hex')}`,
      keepalive: m.keep_alive,
      connectTimeout: 8000, // inside the step's 10 s
      clean: true,
      ...(m.broker_user ? { username: m.broker_user, password: m.broker_password } : {}),
      // over WebSocket the TLS options go to the ws library, which takes only some of them itself
      ...(trust ? (tlsOptions(target.host, trust) as Partial<IClientOptions>) : {}),
      ...(trust && target.scheme === 'wss' ? { wsOptions: tlsOptions(target.host, trust) } : {}),
    };
    const client = await t.step('login', () => connectClient(target, opts), {
      note: () => (m.broker_user ? testNote('login_as', { user: m.broker_user }) : testNote('login_anonymous')),
    });
    try {
      await roundTrip(client, m.qos, t);
    } finally {
      await client.endAsync(true).catch(() => undefined);
    }
  });
}
