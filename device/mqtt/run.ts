// One run of the MQTT engine: one version of the saved pew_mqtt and pew, from its start to the
// next save. Every plc_poll seconds it reads the control block (device/model/blocks/mqtt.ts),
// takes a publish request into the crash-safe queue, follows the subscriptions the block names,
// and writes the connection state, the queue counts, the request's state, error and counter.
// The queue drains in order while the broker is connected, up to WINDOW publishes in flight.
import type { MqttClient } from 'mqtt';
import { ControlInterfaceOff, plcFailureReason } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import { type BlockState, SERVICE_ERROR, type ServiceErrorName } from '../model/blocks/convention.ts';
import { MQTT_BLOCK, MQTT_CONNECTION, MQTT_PAYLOAD_MAX, MQTT_SUBSCRIPTIONS, MQTT_TOPIC_MAX, type MqttConnection } from '../model/blocks/mqtt.ts';
import { sameReason } from '../model/reasons.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import type { Pew } from '../model/sections/pew.ts';
import { BlockIo, statusHead } from '../service-runtime/block-io.ts';
import type { DeadLetters } from '../service-runtime/dead-letters.ts';
import { forTarget, moveGone } from '../service-runtime/dead-move.ts';
import { RequestFault } from '../service-runtime/plc-text.ts';
import type { JobQueue } from '../service-runtime/queue.ts';
import type { StatusBook } from '../service-runtime/status.ts';
import { drivers } from '../services/drivers.ts';
import type { Logger } from '../system/log.ts';
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, clientOptions, connectionError, endClient, STATUS_OFFLINE, STATUS_ONLINE } from './connection.ts';
import { checkFilter, checkPublishTopic, topicMatches } from './topics.ts';

export const MQTT_USER = 'mqtt';
export const WINDOW = 16; // publishes in flight at once

export interface MqttJob {
  /** topic */
  t: string;
  /** payload, base64 */
  p: string;
  q: 0 | 1 | 2;
  r: boolean;
  /** the broker the publish was made for (service-runtime/job-targets.ts) */
  target?: string;
}

export const isMqttJob = (v: unknown): v is MqttJob => {
  const j = v as Partial<MqttJob> | null;
  return (
    typeof j === 'object' &&
    j !== null &&
    typeof j.t === 'string' &&
    typeof j.p === 'string' &&
    (j.q === 0 || j.q === 1 || j.q === 2) &&
    typeof j.r === 'boolean' &&
    (j.target === undefined || typeof j.target === 'string')
  );
};

export type MqttCounter = 'published' | 'received' | 'failed';

/** What outlives a save: the status, the queue, the block's result words, the subscriptions' counts. */
export interface MqttShared {
  book: StatusBook<MqttCounter>;
  queue: JobQueue<MqttJob>;
  dead: DeadLetters<MqttJob>;
  /** the broker of the saved settings: what new publishes are stamped with, what a queued one must match */
  target: string;
  clientId: string;
  state: BlockState;
  error: ServiceErrorName;
  counter: number;
  subCount: number[];
  subLength: number[];
  subError: ServiceErrorName;
}

export interface MqttRunDeps {
  links: Links;
  log: Logger;
  dataDir: string;
}

interface Sub {
  key: string;
  filter: string;
  areaAddr: number;
  areaSize: number;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const decoder = new TextDecoder('utf-8', { fatal: true });

export class MqttRun {
  private active = true;
  private client: MqttClient | undefined;
  private readonly io: BlockIo;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> = Promise.resolve();
  private connection: MqttConnection = 'connecting';
  private readonly inflight = new Set<number>();
  private backoff = BACKOFF_FIRST_MS;
  private subs: (Sub | undefined)[] = Array.from({ length: MQTT_SUBSCRIPTIONS }, () => undefined);
  private subKeys: string[] = Array.from({ length: MQTT_SUBSCRIPTIONS }, () => '');
  private messages: Promise<void> = Promise.resolve();
  private statusTopic: string | undefined;
  private retryDrain: ReturnType<typeof setTimeout> | undefined;
  private movingGone: Promise<void> | undefined;

  constructor(
    private readonly deps: MqttRunDeps,
    private readonly shared: MqttShared,
    readonly m: Mqtt,
    private readonly pew: Pew,
  ) {
    this.io = new BlockIo(() => this.link(), MQTT_BLOCK, m.plc_control_dt, MQTT_USER);
  }

  private link() {
    const link = this.deps.links.get(this.pew.interface_plc);
    if (!link) throw new ControlInterfaceOff();
    return link;
  }

  async start(): Promise<void> {
    this.shared.book.set('connecting');
    // the status topic comes from the block: read it once before connecting (it is the last will)
    await this.poll();
    if (!this.active) return;
    const mqtt = await drivers.mqtt();
    const { target, opts } = await clientOptions(this.m, this.deps.dataDir, this.shared.clientId, this.statusTopic || undefined);
    const client = mqtt.connect(target.url, opts);
    this.client = client;
    client.on('connect', () => this.onConnect(client));
    client.on('close', () => this.onClose(client));
    client.on('error', (e) => {
      const code = connectionError(e);
      this.shared.book.error(code, errorText(e));
      this.deps.log.warn('mqtt connection failed', { code, error: errorText(e) });
    });
    client.on('message', (topic, payload) => {
      this.onMessage(topic, payload);
    });
    this.schedule();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.retryDrain) clearTimeout(this.retryDrain);
    await this.polling;
    const client = this.client;
    this.client = undefined;
    if (client && (await endClient(client)) === 'destroyed') this.deps.log.warn('mqtt client did not end in time: its socket was closed');
    await this.messages;
    await this.movingGone;
    this.shared.book.set('off');
  }

  /** Polls every plc_poll seconds from start to start (a slow poll does not stretch the period). */
  private schedule(last = performance.now()): void {
    if (!this.active) return;
    this.timer = setTimeout(
      () => {
        const t = performance.now();
        this.polling = this.poll().finally(() => this.schedule(t));
      },
      Math.max(0, this.m.plc_poll * 1000 - (performance.now() - last)),
    );
  }

  // ---- the broker ----

  private onConnect(client: MqttClient): void {
    if (client !== this.client) return;
    this.connection = 'connected';
    this.backoff = BACKOFF_FIRST_MS;
    client.options.reconnectPeriod = BACKOFF_FIRST_MS;
    this.shared.book.set(this.shared.queue.waiting > 0 ? 'running' : 'connected');
    this.deps.log.info('mqtt connected', { broker: this.m.broker_addr });
    if (this.statusTopic) client.publish(this.statusTopic, STATUS_ONLINE, { qos: this.m.qos, retain: true }, () => undefined);
    // a persistent session keeps the subscriptions; subscribe again anyway (the broker may have lost it)
    for (const sub of this.subs) if (sub) this.subscribe(sub);
    this.drain();
  }

  private onClose(client: MqttClient): void {
    if (client !== this.client || !this.active) return;
    if (this.connection === 'connected') this.deps.log.warn('mqtt connection lost', { broker: this.m.broker_addr });
    this.connection = this.connection === 'connecting' ? 'connecting' : 'reconnecting';
    // publishes in the queue while the broker is away: the status says they wait (as the PLC's block does)
    this.shared.book.set(this.connection === 'reconnecting' && this.shared.queue.waiting > 0 ? 'waiting' : this.connection);
    // back-off: 1 s, 2 s, 4 s … 30 s between attempts (mqtt.js reads the period when it sets its timer)
    client.options.reconnectPeriod = this.backoff;
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
  }

  private subscribe(sub: Sub): void {
    this.client?.subscribe(sub.filter, { qos: this.m.qos }, (e, granted) => {
      const g = granted?.[0]?.qos;
      if (e || g === undefined || g >= 128) {
        this.shared.subError = 'server_refused';
        this.deps.log.warn('mqtt subscription refused', { filter: sub.filter, error: e ? errorText(e) : `SUBACK ${g}` });
      }
    });
  }

  /** Publishes the oldest waiting jobs, WINDOW at most in flight, acknowledging each in the queue when the broker has it. */
  private drain(): void {
    const client = this.client;
    if (!client || !this.active || this.connection !== 'connected') return;
    for (const { seq, job } of this.shared.queue.head(WINDOW)) {
      if (this.inflight.size >= WINDOW) break;
      if (this.inflight.has(seq)) continue;
      if (!forTarget(job, this.shared.target)) {
        // made for another broker: never published here; moved once the publishes before it are through
        if (this.inflight.size === 0) this.dropGone();
        break;
      }
      this.inflight.add(seq);
      client.publish(job.t, Buffer.from(job.p, 'base64'), { qos: job.q, retain: job.r }, (e) => {
        if (!this.active || client !== this.client) return;
        if (e) {
          // not delivered: it stays in the queue and goes again after the reconnect (no busy loop)
          this.inflight.delete(seq);
          this.deps.log.warn('mqtt publish not delivered, kept in the queue', { topic: job.t, error: errorText(e) });
          this.retryDrain ??= setTimeout(() => {
            this.retryDrain = undefined;
            this.drain();
          }, BACKOFF_FIRST_MS);
          return;
        }
        void this.shared.queue.ack(seq).then(
          () => {
            this.inflight.delete(seq);
            this.finished('done', 'none');
            this.shared.book.count('published');
            this.shared.book.success();
            if (this.connection === 'connected') this.shared.book.set(this.shared.queue.waiting > 0 ? 'running' : 'connected');
            this.drain();
          },
          (err: unknown) => this.deps.log.error('mqtt queue cannot remove a delivered job', { error: errorText(err) }),
        );
      });
    }
  }

  /** Publishes at the head made for another broker: dead letters (target_gone), then the queue goes on. */
  private dropGone(): void {
    if (this.movingGone) return;
    this.movingGone = moveGone(this.shared)
      .then(({ moved, from }) => {
        if (moved > 0)
          this.deps.log.warn(`mqtt: ${moved} publish(es) made for a broker no longer saved, moved to the dead letters`, {
            target: from,
            now: this.shared.target,
          });
      })
      .catch((e: unknown) => this.deps.log.error('mqtt queue cannot move publishes to the dead letters', { error: errorText(e) }))
      .finally(() => {
        this.movingGone = undefined;
        this.drain();
      });
  }

  private finished(state: BlockState, error: ServiceErrorName): void {
    this.shared.state = state;
    this.shared.error = error;
    this.shared.counter = (this.shared.counter + 1) & 0xffff;
  }

  // ---- the PLC ----

  private async poll(): Promise<void> {
    try {
      const b = await this.io.read();
      if (!this.active) return;
      if (b.request !== 0) await this.take(b);
      await this.followSubscriptions(b);
      if (this.statusTopic === undefined && b.status_topic_addr !== 0) await this.learnStatusTopic(b);
      await this.writeStatus();
      this.shared.book.plc = undefined;
    } catch (e) {
      this.io.forget();
      const why = plcFailureReason(e);
      if (!sameReason(this.shared.book.plc, why)) this.deps.log.warn('mqtt control block cannot be used', { error: errorText(e) });
      this.shared.book.plc = why;
    }
  }

  /** The status topic, read once: the last will of the next (re)connect, and "online" now when connected. */
  private async learnStatusTopic(b: Record<string, number>): Promise<void> {
    try {
      const topic = await this.text('status topic', b.status_topic_addr!, b.status_topic_len!);
      checkPublishTopic(topic);
      this.statusTopic = topic;
    } catch (e) {
      if (!(e instanceof RequestFault)) throw e;
      this.statusTopic = '';
      this.shared.subError = e.code;
      this.deps.log.warn('mqtt status topic refused', { code: e.code, error: e.message });
      return;
    }
    const client = this.client;
    if (!client) return;
    client.options.will = { topic: this.statusTopic, payload: Buffer.from(STATUS_OFFLINE), qos: this.m.qos, retain: true };
    if (this.connection === 'connected') client.publish(this.statusTopic, STATUS_ONLINE, { qos: this.m.qos, retain: true }, () => undefined);
  }

  private async text(what: string, addr: number, len: number): Promise<string> {
    const bytes = await this.io.string(what, addr, len, MQTT_TOPIC_MAX);
    try {
      return decoder.decode(bytes);
    } catch {
      throw new RequestFault('bad_string', `${what}: not UTF-8 text`);
    }
  }

  /** A publish request: into the queue (durably) before the request word is cleared. */
  private async take(b: Record<string, number>): Promise<void> {
    try {
      if (b.request !== MQTT_BLOCK.requests.publish) throw new RequestFault('bad_request', `request ${b.request} is not a publish (1)`);
      if (b.qos! > 2) throw new RequestFault('bad_request', `QoS ${b.qos} is not 0, 1 or 2`);
      if (b.retain! > 1) throw new RequestFault('bad_request', `retain ${b.retain} is not 0 or 1`);
      if (b.payload_len! > MQTT_PAYLOAD_MAX) throw new RequestFault('too_large', `payload of ${b.payload_len} bytes, at most ${MQTT_PAYLOAD_MAX}`);
      const topic = await this.text('topic', b.topic_addr!, b.topic_len!);
      checkPublishTopic(topic);
      const payload = await this.io.bytes('payload', b.payload_addr!, b.payload_len!);
      const { dropped } = await this.shared.queue.push({
        t: topic,
        p: Buffer.from(payload).toString('base64'),
        q: b.qos as 0 | 1 | 2,
        r: b.retain === 1,
        target: this.shared.target,
      });
      if (dropped) this.shared.book.error('queue_full', `the queue held ${this.shared.queue.bound} publishes: the oldest was dropped`);
      this.shared.state = this.connection === 'connected' ? 'running' : 'waiting';
      this.shared.error = this.connection === 'connected' ? 'none' : 'not_connected';
      if (this.connection !== 'connected' && this.connection !== 'connecting') this.shared.book.set('waiting');
      await this.io.take(statusHead(this.shared));
      this.drain();
    } catch (e) {
      if (!(e instanceof RequestFault)) throw e;
      this.finished('error', e.code);
      this.shared.book.count('failed');
      this.shared.book.error(e.code, e.message);
      this.deps.log.warn('mqtt publish request refused', { code: e.code, error: e.message });
      await this.io.take(statusHead(this.shared));
    }
  }

  private async followSubscriptions(b: Record<string, number>): Promise<void> {
    for (let i = 0; i < MQTT_SUBSCRIPTIONS; i++) {
      const n = i + 1;
      const key = [b[`sub${n}_topic_addr`], b[`sub${n}_topic_len`], b[`sub${n}_area_addr`], b[`sub${n}_area_size`]].join(':');
      if (key === this.subKeys[i]) continue;
      this.subKeys[i] = key;
      const old = this.subs[i];
      this.subs[i] = undefined;
      if (old && !this.subs.some((s) => s?.filter === old.filter)) this.client?.unsubscribe(old.filter);
      if (b[`sub${n}_topic_addr`] === 0) continue;
      try {
        const filter = await this.text(`subscription ${n} topic`, b[`sub${n}_topic_addr`]!, b[`sub${n}_topic_len`]!);
        checkFilter(filter);
        const sub: Sub = { key, filter, areaAddr: b[`sub${n}_area_addr`]!, areaSize: b[`sub${n}_area_size`]! };
        this.subs[i] = sub;
        if (this.connection === 'connected') this.subscribe(sub);
      } catch (e) {
        if (!(e instanceof RequestFault)) {
          this.subKeys[i] = '';
          throw e;
        }
        this.shared.subError = e.code;
        this.deps.log.warn('mqtt subscription refused', { subscription: n, code: e.code, error: e.message });
      }
    }
  }

  /** A received message: into the area of every subscription whose filter matches, then its count and length. */
  private onMessage(topic: string, payload: Buffer): void {
    this.shared.book.count('received');
    this.subs.forEach((sub, i) => {
      if (!sub || !topicMatches(sub.filter, topic)) return;
      this.messages = this.messages.then(async () => {
        if (!this.active) return;
        try {
          await this.io.writeBytes(`subscription ${i + 1} area`, sub.areaAddr, payload, sub.areaSize);
          this.shared.subCount[i] = (this.shared.subCount[i]! + 1) & 0xffff;
          this.shared.subLength[i] = Math.min(payload.length, 0xffff);
          await this.io.write({ [`sub${i + 1}_length`]: this.shared.subLength[i]!, [`sub${i + 1}_count`]: this.shared.subCount[i]! });
        } catch (e) {
          this.shared.subError = e instanceof RequestFault ? e.code : 'other';
          this.deps.log.warn('mqtt message cannot be written into the PLC', { topic, error: errorText(e) });
        }
      });
    });
  }

  private async writeStatus(): Promise<void> {
    const s = this.shared;
    await this.io.write({
      ...statusHead(s),
      counter: s.counter,
      connection: MQTT_CONNECTION[this.connection],
      queue_waiting: Math.min(s.queue.waiting, 0xffff),
      queue_dropped: Math.min(s.queue.dropped, 0xffff),
      sub_error: SERVICE_ERROR[s.subError],
    });
  }
}
