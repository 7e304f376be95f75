// The MQTT engine's client options from the saved pew_mqtt (spec §3): the broker's scheme (mqtt,
// mqtts, ws, wss) and port, TLS version, CA, client certificate and `insecure`, keep-alive, user
// and password; a persistent session (clean false) under the unit's own client id so that the
// broker keeps QoS 1/2 state and subscriptions across a reconnect; the last will on the status
// topic. The same target and trust reading as the connection test (device/services/mqtt-test.ts).
import type { IClientOptions, MqttClient } from 'mqtt';
import { errorOfFailure, type ServiceErrorName } from '../model/blocks/convention.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import { type BrokerTarget, brokerTarget, mqttTrust } from '../services/mqtt-test.ts';
import { tlsOptions } from '../services/net-probe.ts';
import { classify } from '../services/test-run.ts';

export const STATUS_ONLINE = 'online';
export const STATUS_OFFLINE = 'offline';
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** How long a stop waits for the client's own end before it closes the socket itself. */
export const END_WAIT_MS = 5000;

/**
 * What every connection of the unit to the saved broker shares (the raw client's, the Sparkplug B
 * edge node's): the target, TLS trust, keep-alive, timeouts, back-off start, login. Each use adds its
 * client id, session kind and will.
 */
export async function brokerOptions(m: Mqtt, dataDir: string): Promise<{ target: BrokerTarget; opts: IClientOptions }> {
  const target = brokerTarget(m);
  const trust = target.tls ? await mqttTrust(m, dataDir) : undefined;
  const opts: IClientOptions = {
    keepalive: m.keep_alive,
    connectTimeout: 10_000,
    reconnectPeriod: BACKOFF_FIRST_MS,
    queueQoSZero: false,
    ...(m.broker_user ? { username: m.broker_user, password: m.broker_password } : {}),
    ...(trust ? (tlsOptions(target.host, trust) as Partial<IClientOptions>) : {}),
    ...(trust && target.scheme === 'wss' ? { wsOptions: tlsOptions(target.host, trust) } : {}),
  };
  return { target, opts };
}

/** The raw client's options: a persistent session under the unit's client id, the will on the status topic. */
export async function clientOptions(
  m: Mqtt,
  dataDir: string,
  clientId: string,
  statusTopic: string | undefined,
): Promise<{ target: BrokerTarget; opts: IClientOptions }> {
  const { target, opts } = await brokerOptions(m, dataDir);
  return {
    target,
    opts: {
      clientId,
      clean: false,
      ...opts,
      ...(statusTopic ? { will: { topic: statusTopic, payload: Buffer.from(STATUS_OFFLINE), qos: m.qos, retain: true } } : {}),
    },
  };
}

/** The error code of a connection failure (CONNACK refusals are auth_failed). */
export function connectionError(e: unknown): Exclude<ServiceErrorName, 'none'> {
  const rc = (e as { code?: unknown }).code;
  // MQTT 3.1.1 CONNACK 4 "bad user name or password", 5 "not authorized"; MQTT 5 134, 135
  if (rc === 4 || rc === 5 || rc === 134 || rc === 135) return 'auth_failed';
  const code = errorOfFailure(classify(e).reason);
  return code === 'none' ? 'other' : code;
}

/** Resolves true when `p` settles in time, false otherwise (or when it fails): a bounded wait for a step of a connection. */
export function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => {
      timer = setTimeout(() => r(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * A client being ended makes no further connect attempt. mqtt.js (5.16) with `manualConnect` clears
 * its "disconnecting" mark once an end has called back, and an end of a client still waiting for
 * CONNACK calls back before its socket has closed: the close then starts the reconnect timer, and
 * the ended client comes back with its old will and client id (seen on mosquitto: it took over the
 * next run's session, and the broker sent the old will twice). Without a reconnect period it cannot.
 */
export function noReconnect(client: Pick<MqttClient, 'options'>): void {
  client.options.reconnectPeriod = 0;
}

/**
 * Ends `client` at once (force: nothing more is sent) and resolves when it has ended, or after
 * `waitMs` with the socket destroyed: mqtt.js may never call back from end(true) when its stream
 * closed in between (mqtt.js issue 710), and a stop that hangs would hold every later save of the
 * service. `end` is set before the wait, so the client makes no further connect attempt either way.
 */
export async function endClient(client: Pick<MqttClient, 'endAsync' | 'stream' | 'options'>, waitMs = END_WAIT_MS): Promise<'ended' | 'destroyed'> {
  noReconnect(client);
  // an end that fails has ended too: only one that never calls back leaves the socket to close here
  if (
    await within(
      client.endAsync(true).catch(() => undefined),
      waitMs,
    )
  )
    return 'ended';
  client.stream?.destroy();
  return 'destroyed';
}
