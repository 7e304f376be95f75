// One run of the Sparkplug B edge node (docs/sparkplug.md): one version of the saved pew_mqtt, pew
// and pew_log, from its start to the next save. Its own MQTT connection to the broker of pew_mqtt
// (clean session, the will an NDEATH with the bdSeq of each CONNECT), the births, a read pass every
// sparkplug_poll s published by exception, DDEATH while the PLC does not answer, rebirth on request,
// the primary host's STATE, and NDEATH before an intentional disconnect. session.ts decides what
// goes out with which seq; everything that publishes runs in one serial chain (#work), so the order
// of the seqs is the order of the writes. While the node is not born the passes go on and their
// changes wait in the history queue (history.ts), replayed after the next births as historical DDATA.
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Clock } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { Log } from '../model/sections/log.ts';
import { LOG_AREAS } from '../model/sections/logfile.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import type { Pew } from '../model/sections/pew.ts';
import { sparkplugDeviceId } from '../model/sparkplug.ts';
import type { SparkplugState } from '../model/sparkplug-status.ts';
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS, brokerOptions, END_WAIT_MS, endClient, noReconnect, within } from '../mqtt/connection.ts';
import type { JobQueue } from '../service-runtime/queue.ts';
import { drivers } from '../services/drivers.ts';
import type { BrokerTarget } from '../services/mqtt-test.ts';
import type { AuditLog } from '../system/audit.ts';
import type { Logger } from '../system/log.ts';
import { writeBdSeq } from './bdseq-file.ts';
import { type PlcWrite, planWrite } from './commands.ts';
import { type HistoryJob, historyJob, historyValues } from './history.ts';
import { changed, type Metric, type MetricTable, metricTable } from './metrics.ts';
import {
  asksRebirth,
  dbirthMessage,
  ddataMessage,
  ddeathMessage,
  loadPayloads,
  nbirthMessage,
  ndeathMessage,
  type PayloadCodec,
  type PayloadMessage,
  REBIRTH,
} from './payload.ts';
import { Poller, SPARKPLUG_USER } from './poller.ts';
import { EdgeSession } from './session.ts';
import { parseState } from './state.ts';
import { commandTopics, deviceTopic, nodeTopic, parseTopic, type SparkplugIds } from './topics.ts';
import type { SparkplugValue } from './types.ts';

/** How long an intentional stop waits for the NDEATH's PUBACK, then for the DISCONNECT to go out. */
export const NDEATH_WAIT_MS = 2000;

/** DCMD writes waiting in the chain at most; more are refused as `busy`. */
export const MAX_WRITES_WAITING = 64;
/** Refusals are logged at most once in this time. */
export const REFUSAL_LOG_MS = 10_000;

export type SparkplugCounter = 'published' | 'births' | 'ddata' | 'commands' | 'refused' | 'stored' | 'replayed' | 'dropped';

/** What outlives a save: the client id, the bdSeq kept on disk, the counters, the last error. */
export interface SparkplugShared {
  clientId: string;
  bdSeqFile: string;
  /** the bdSeq of the last CONNECT sent (undefined: none ever) */
  lastBdSeq: number | undefined;
  /** the writes of bdSeq, in order */
  persist: Promise<void>;
  counters: Record<SparkplugCounter, number>;
  /**
   * the value last published or stored per metric key (births, DDATA, history): what the next pass
   * is compared with; kept across saves, so a new run stores what moved since the last one published
   */
  last: Map<string, SparkplugValue | null>;
  /** the changes of the passes while not born, one job a pass, replayed after the births (<dataDir>/queues/sparkplug) */
  history: JobQueue<HistoryJob>;
  lastError: { message: string; at: number } | undefined;
}

export interface SparkplugRunDeps {
  links: Links;
  log: Logger;
  dataDir: string;
  clock: Clock;
  /** DCMD writes are audited here */
  audit?: AuditLog;
  /** how a CONNECT's bdSeq is kept on storage (default writeBdSeq; a test holds it to show the births wait for it) */
  writeBdSeq?: (file: string, n: number) => Promise<void>;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class SparkplugRun {
  #active = true;
  #client: MqttClient | undefined;
  #connected = false;
  #linkDown = false;
  #backoff = BACKOFF_FIRST_MS;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #work: Promise<void> = Promise.resolve();
  #rebirthQueued = false;
  #writesWaiting = 0;
  #refusalLoggedAt = -Infinity;
  #refusalsUnlogged = 0;
  readonly #session: EdgeSession;
  readonly #table: MetricTable;
  readonly #byKey: Map<string, Metric>;
  readonly #poller: Poller;
  readonly #ids: SparkplugIds;
  #codec: PayloadCodec | undefined;
  #connect: ((url: string, opts: IClientOptions) => MqttClient) | undefined;
  #target: BrokerTarget | undefined;
  #opts: IClientOptions = {};

  constructor(
    private readonly deps: SparkplugRunDeps,
    private readonly shared: SparkplugShared,
    readonly m: Mqtt,
    pew: Pew,
    log: Log,
  ) {
    this.#session = new EdgeSession({ primaryHostId: m.sparkplug_primary_host_id, ...(shared.lastBdSeq !== undefined ? { lastBdSeq: shared.lastBdSeq } : {}) });
    this.#table = metricTable(log, pew);
    this.#byKey = new Map(this.#table.metrics.map((x) => [x.key, x]));
    this.#poller = new Poller(this.#table.metrics, pew, deps.links, () => deps.clock.now());
    this.#ids = { group: m.sparkplug_group_id, node: m.sparkplug_edge_node_id, device: sparkplugDeviceId(m, pew) };
    for (const s of this.#table.skipped) deps.log.warn('sparkplug: a logger point is no metric', { metric: s.name, reason: s.reason });
  }

  get metrics(): number {
    return this.#table.metrics.length;
  }
  get bdSeq(): number | undefined {
    return this.#session.bdSeq;
  }
  get seq(): number {
    return this.#session.seq;
  }

  get state(): SparkplugState {
    if (!this.#connected) return 'connecting';
    if (this.#session.node === 'awaiting_host') return 'awaiting_host';
    if (this.#session.node !== 'birthed') return 'connecting';
    return this.#linkDown ? 'link_down' : 'online';
  }

  async start(): Promise<void> {
    this.#codec = await loadPayloads();
    const mqtt = await drivers.mqtt();
    this.#connect = (url, opts) => mqtt.connect(url, opts);
    const { target, opts } = await brokerOptions(this.m, this.deps.dataDir);
    if (!this.#active) return;
    this.#target = target;
    // principles-persistence-clean-session-311: a clean session under a client id of its own
    this.#opts = { ...opts, clientId: this.shared.clientId, clean: true };
    this.#open();
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#active = false;
    if (this.#timer) clearTimeout(this.#timer);
    // the step under way ends (a read, a write, a birth); one stuck on a broker that stopped
    // answering must not hold the stop: the steps after it see the run stopped and do nothing
    if (!(await within(this.#work, END_WAIT_MS))) this.deps.log.warn('sparkplug: a step did not end in time, stopping anyway');
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      noReconnect(client); // a connection lost from here on is not made again
      // operational-behavior-edge-node-intentional-disconnect-ndeath: NDEATH first, then DISCONNECT
      for (const p of this.#session.stop()) if (p.type === 'NDEATH' && client.connected) await this.#ndeath(client, p.bdSeq);
      await this.#end(client);
    }
    this.#connected = false;
    await this.shared.persist;
  }

  // ---- the connection ----

  /** The will of the next CONNECT: NDEATH with its bdSeq, QoS 1, not retained (payloads-ndeath-will-message-qos, -retain). */
  #will(): NonNullable<IClientOptions['will']> {
    const payload = this.#codec!.encode(ndeathMessage({ timestamp: this.deps.clock.now(), bdSeq: this.#session.willBdSeq() }));
    return { topic: nodeTopic(this.#ids, 'NDEATH'), payload: Buffer.from(payload), qos: 1, retain: false };
  }

  #open(): void {
    // manualConnect: the listeners must stand before the first CONNECT is written
    const client = this.#connect!(this.#target!.url, { ...this.#opts, reconnectPeriod: BACKOFF_FIRST_MS, will: this.#will(), manualConnect: true });
    this.#client = client;
    this.#backoff = BACKOFF_FIRST_MS;
    // mqtt.js builds each CONNECT from options.will and says 'reconnect' before an automatic attempt:
    // the will then takes the next bdSeq; 'packetsend' of the CONNECT makes that number this connection's
    client.on('reconnect', () => {
      if (client === this.#client) client.options.will = this.#will();
    });
    client.on('packetsend', (packet: { cmd: string }) => {
      if (packet.cmd === 'connect' && client === this.#client) this.#connectSent();
    });
    client.on('connect', () => {
      void this.#enqueue(() => this.#onConnect(client));
    });
    client.on('close', () => this.#onClose(client));
    client.on('error', (e) => {
      this.#error(`connection: ${errorText(e)}`);
      this.deps.log.warn('sparkplug connection failed', { error: errorText(e) });
    });
    client.on('message', (topic, payload) => this.#onMessage(client, topic, payload));
    client.connect();
  }

  #connectSent(): void {
    const n = this.#session.connectSent();
    this.shared.lastBdSeq = n;
    const file = this.shared.bdSeqFile;
    const write = this.deps.writeBdSeq ?? writeBdSeq;
    this.shared.persist = this.shared.persist
      .then(() => write(file, n))
      .catch((e: unknown) => this.deps.log.error('sparkplug: bdSeq cannot be kept on storage', { error: errorText(e) }));
  }

  async #onConnect(client: MqttClient): Promise<void> {
    if (client !== this.#client || !this.#active) return;
    this.#connected = true;
    this.#backoff = BACKOFF_FIRST_MS;
    client.options.reconnectPeriod = BACKOFF_FIRST_MS;
    this.deps.log.info('sparkplug connected', { broker: this.m.broker_addr, bdSeq: this.#session.bdSeq });
    try {
      // message-flow-edge-node-ncmd-subscribe, -device-dcmd-subscribe, primary-application-state-…-state-subs
      const granted = await client.subscribeAsync(commandTopics(this.#ids, this.m.sparkplug_primary_host_id), { qos: 1 });
      const refused = granted.filter((g) => g.qos >= 128).map((g) => g.topic);
      if (refused.length > 0) {
        this.#error(`subscription refused: ${refused.join(', ')}`);
        this.deps.log.warn('sparkplug: the broker refused a subscription (its ACL?)', { topics: refused });
      }
    } catch (e) {
      this.#error(`subscribe: ${errorText(e)}`);
      return; // the connection is gone: the next connect subscribes again
    }
    // the bdSeq this NBIRTH carries is on storage first: a kill -9 after the birth must not start the
    // next session with the same number (topics-nbirth-bdseq-increment)
    await this.shared.persist;
    if (client !== this.#client || !this.#active || !client.connected) return;
    for (const p of this.#session.connected()) if (p.type === 'NBIRTH') await this.#births(p.bdSeq);
  }

  #onClose(client: MqttClient): void {
    if (client !== this.#client || !this.#active) return;
    if (this.#connected) this.deps.log.warn('sparkplug connection lost', { broker: this.m.broker_addr });
    this.#connected = false;
    this.#session.closed();
    // back-off as the raw client: 1 s, 2 s, 4 s … 30 s between attempts
    client.options.reconnectPeriod = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, BACKOFF_MAX_MS);
  }

  /** Ends the connection: DISCONNECT (the broker drops the will), bounded; a client that is not connected is closed at once. */
  async #end(client: MqttClient): Promise<void> {
    if (client.connected && (await within(client.endAsync(false), NDEATH_WAIT_MS))) return;
    // the DISCONNECT did not go out in time: mqtt.js ignores a second end while one is under way,
    // so the socket is closed here (the broker then sends the will, with this bdSeq)
    if (client.disconnecting) client.stream?.destroy();
    else await endClient(client, NDEATH_WAIT_MS);
  }

  /** Publishes NDEATH at QoS 1, not retained, and waits for its PUBACK, bounded. */
  async #ndeath(client: MqttClient, bdSeq: number): Promise<void> {
    const payload = Buffer.from(this.#codec!.encode(ndeathMessage({ timestamp: this.deps.clock.now(), bdSeq })));
    const done = await within(client.publishAsync(nodeTopic(this.#ids, 'NDEATH'), payload, { qos: 1, retain: false }), NDEATH_WAIT_MS);
    if (done) this.shared.counters.published++;
    else this.deps.log.warn('sparkplug: NDEATH not acknowledged in time', { bdSeq });
  }

  // ---- publishing ----

  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#work = this.#work.then(async () => {
      if (!this.#active) return;
      try {
        await task();
      } catch (e) {
        this.#error(errorText(e));
        this.deps.log.error('sparkplug: a step failed', { error: errorText(e) });
      }
    });
    return this.#work;
  }

  /**
   * One message at QoS 0, not retained (payloads-nbirth-qos, -dbirth-qos, -ddata-qos …), written in
   * call order; `written` is told whether it went into the socket (QoS 0 has no acknowledgement).
   */
  #publish(topic: string, msg: PayloadMessage, written?: (ok: boolean) => void): void {
    const client = this.#client;
    if (!client) {
      written?.(false);
      return;
    }
    client.publish(topic, Buffer.from(this.#codec!.encode(msg)), { qos: 0, retain: false }, (e) => {
      if (e) this.deps.log.warn('sparkplug publish not written', { topic, error: errorText(e) });
      written?.(!e);
    });
    this.shared.counters.published++;
  }

  /** NBIRTH (seq 0, this connection's bdSeq), then DBIRTH with fresh values when the PLC answers. */
  async #births(bdSeq: number): Promise<void> {
    this.#publish(nodeTopic(this.#ids, 'NBIRTH'), nbirthMessage({ timestamp: this.deps.clock.now(), bdSeq }));
    this.shared.counters.births++;
    this.shared.last.clear();
    await this.#pass();
  }

  /**
   * One read pass: DBIRTH when the device is not born, DDATA with the metrics that changed
   * (topics-ddata-payload, principles-rbe-recommended), DDEATH once when no block answers
   * (operational-behavior-device-ddeath). Nothing while the node is not born.
   */
  async #pass(): Promise<void> {
    if (this.#session.node !== 'birthed') return this.#store();
    const pass = await this.#poller.read();
    if (!this.#active || this.#session.node !== 'birthed') return;
    if (pass.down) {
      if (!this.#linkDown) this.deps.log.warn('sparkplug: the PLC does not answer', { error: pass.error });
      this.#linkDown = true;
      if (pass.error) this.#error(`PLC: ${pass.error}`);
      const d = this.#session.deviceDeath();
      if (d) this.#publish(deviceTopic(this.#ids, 'DDEATH'), ddeathMessage({ timestamp: this.deps.clock.now(), seq: d.seq }));
      return;
    }
    this.#linkDown = false;
    if (this.#session.device !== 'birthed') {
      const b = this.#session.deviceBirth();
      if (!b) return;
      this.#publish(deviceTopic(this.#ids, 'DBIRTH'), dbirthMessage({ timestamp: this.deps.clock.now(), seq: b.seq, values: pass.values }));
      for (const v of pass.values) this.shared.last.set(v.metric.key, v.value);
      await this.#replay();
      return;
    }
    const moved = pass.values.filter((v) => changed(v.metric, this.shared.last.get(v.metric.key) ?? null, v.value));
    if (moved.length === 0) return;
    const d = this.#session.data();
    if (!d) return;
    this.#publish(deviceTopic(this.#ids, 'DDATA'), ddataMessage({ timestamp: this.deps.clock.now(), seq: d.seq, values: moved }));
    this.shared.counters.ddata++;
    for (const v of moved) this.shared.last.set(v.metric.key, v.value);
  }

  /**
   * A pass while the node is not born (connecting, broker away, primary host offline): the metrics
   * that changed since the value last published or stored go into the history queue as one job
   * (the oldest dropped and counted when it is full). With nothing to compare with (the first pass
   * since the start, or since births without a DBIRTH) a pass only takes the values: the births
   * carry the current values anyway.
   */
  async #store(): Promise<void> {
    const pass = await this.#poller.read();
    if (!this.#active || this.#session.node === 'birthed' || pass.down) return;
    const first = this.shared.last.size === 0;
    const moved = first ? [] : pass.values.filter((v) => changed(v.metric, this.shared.last.get(v.metric.key) ?? null, v.value));
    for (const v of first ? pass.values : moved) this.shared.last.set(v.metric.key, v.value);
    const job = historyJob(moved);
    if (!job) return;
    try {
      const r = await this.shared.history.push(job);
      this.shared.counters.stored++;
      if (r.dropped) this.shared.counters.dropped++;
    } catch (e) {
      this.#error(`history: ${errorText(e)}`);
      this.deps.log.error('sparkplug: values cannot be kept on storage', { error: errorText(e) });
    }
  }

  /**
   * After a DBIRTH: the jobs kept while not born, oldest first, each one DDATA with the next seq,
   * is_historical on every metric and the times of its reads; a job is acknowledged (removed) once
   * its DDATA was written into the socket. Metrics no longer in the list are left out. Stops when
   * the node or the device is not born any more, or a write fails: the rest waits for the next births.
   */
  async #replay(): Promise<void> {
    const q = this.shared.history;
    while (this.#active && this.#session.node === 'birthed' && this.#session.device === 'birthed') {
      const [head] = q.head(1);
      if (!head) return;
      const values = historyValues(head.job, this.#byKey);
      if (values.length > 0) {
        const d = this.#session.data();
        if (!d) return;
        let ok = false;
        const msg = ddataMessage({ timestamp: this.deps.clock.now(), seq: d.seq, values });
        const written = new Promise<void>((resolve) => {
          this.#publish(deviceTopic(this.#ids, 'DDATA'), msg, (w) => {
            ok = w;
            resolve();
          });
        });
        if (!(await within(written, NDEATH_WAIT_MS)) || !ok) return;
        this.shared.counters.ddata++;
        this.shared.counters.replayed++;
      }
      await q.ack(head.seq);
    }
  }

  /** A pass every sparkplug_poll seconds from start to start (a slow pass does not stretch the period). */
  #schedule(last = performance.now()): void {
    if (!this.#active) return;
    this.#timer = setTimeout(
      () => {
        const t = performance.now();
        void this.#enqueue(() => this.#pass()).finally(() => this.#schedule(t));
      },
      Math.max(0, this.m.sparkplug_poll * 1000 - (performance.now() - last)),
    );
  }

  // ---- what comes in ----

  #onMessage(client: MqttClient, topic: string, payload: Buffer): void {
    if (client !== this.#client || !this.#active) return;
    const t = parseTopic(topic);
    if (t?.kind === 'state') {
      // message-flow-edge-node-birth-publish-phid-wait-id: only the configured host's STATE
      if (t.hostId !== this.m.sparkplug_primary_host_id) return;
      const s = parseState(payload);
      if (!s) {
        this.deps.log.warn('sparkplug: a STATE that is no host state, ignored', { topic });
        return;
      }
      void this.#enqueue(() => this.#hostState(client, s));
      return;
    }
    if (t?.kind === 'node' && t.type === 'NCMD') return this.#ncmd(payload);
    if (t?.kind === 'device' && t.type === 'DCMD') return this.#dcmd(payload);
  }

  async #hostState(client: MqttClient, s: { online: boolean; timestamp?: number }): Promise<void> {
    if (client !== this.#client) return;
    const step = this.#session.hostState(s);
    if (!step.counted) {
      this.deps.log.info('sparkplug: a STATE older than the last one counted, ignored', { online: s.online, timestamp: s.timestamp });
      return;
    }
    for (const p of step.publish) {
      if (p.type === 'NBIRTH') await this.#births(p.bdSeq);
      else if (p.type === 'NDEATH') await this.#ndeath(client, p.bdSeq);
    }
    if (step.disconnect) {
      // operational-behavior-edge-node-termination-host-offline(-reconnect): disconnect, connect again (bdSeq + 1)
      this.deps.log.warn('sparkplug: the primary host went offline: disconnecting, connecting again', { host: this.m.sparkplug_primary_host_id });
      this.#client = undefined;
      this.#connected = false;
      await this.#end(client);
      if (this.#active) this.#open();
    }
  }

  #ncmd(payload: Buffer): void {
    const r = this.#codec!.decodeCommand(payload);
    if (!r.ok) {
      this.#refuse('NCMD', r.message);
      return;
    }
    const other = r.command.metrics.filter((m) => m.name !== REBIRTH);
    if (other.length > 0) this.#refuse('NCMD', `no such node metric: ${other.map((m) => m.name ?? `alias ${m.alias}`).join(', ')}`);
    if (!asksRebirth(r.command)) return;
    this.shared.counters.commands++;
    // operational-behavior-data-commands-rebirth-action-1..3: one rebirth at a time, same bdSeq, fresh values
    if (this.#rebirthQueued) return;
    this.#rebirthQueued = true;
    void this.#enqueue(async () => {
      this.#rebirthQueued = false;
      for (const p of this.#session.rebirth()) if (p.type === 'NBIRTH') await this.#births(p.bdSeq);
    });
  }

  /**
   * DCMD: each metric is written when commands.ts planWrite takes it (writable, value in range),
   * through the link queue in the serial chain, and audited; anything else is refused and logged,
   * and nothing is written for it. The new value goes out by exception with the next pass.
   */
  #dcmd(payload: Buffer): void {
    const r = this.#codec!.decodeCommand(payload);
    if (!r.ok) {
      this.#refuse('DCMD', r.message);
      return;
    }
    const host = r.command.timestamp !== undefined ? Number(r.command.timestamp) : undefined;
    for (const c of r.command.metrics) {
      const plan = planWrite(this.#table, c);
      if (!plan.ok) {
        const metric = plan.metric?.name ?? c.name ?? (c.alias !== undefined ? `alias ${c.alias}` : '?');
        this.#refuse('DCMD', plan.reason, metric);
        continue;
      }
      if (this.#writesWaiting >= MAX_WRITES_WAITING) {
        this.#refuse('DCMD', 'busy', plan.metric.name);
        continue;
      }
      this.#writesWaiting++;
      void this.#enqueue(async () => {
        this.#writesWaiting--;
        await this.#write(plan.metric, plan.value, plan.write, host);
      });
    }
  }

  async #write(metric: Metric, value: SparkplugValue, write: PlcWrite, hostTs: number | undefined): Promise<void> {
    const s = metric.source;
    const address = `${LOG_AREAS[metric.record.area]}${metric.record.reg_addr}`;
    const detail = { metric: metric.name, interface: s.interfaceId, address, value: String(value), ...(hostTs !== undefined ? { host_ts: hostTs } : {}) };
    try {
      const link = this.deps.links.get(s.interfaceId);
      if (!link) throw new Error(`interface ${s.interfaceId} is not enabled`);
      if (write.kind === 'bit') await link.writeBits(write.area, write.index, [write.value], SPARKPLUG_USER, s.station);
      else await link.writeWords(write.area, write.word, write.words, SPARKPLUG_USER, s.station);
    } catch (e) {
      this.#error(`write ${metric.name}: ${errorText(e)}`);
      this.deps.log.warn('sparkplug: a DCMD write failed', { metric: metric.name, address, error: errorText(e) });
      await this.deps.audit?.write({ action: 'sparkplug_write', user: SPARKPLUG_USER, detail: { ...detail, ok: false, reason: errorText(e) } });
      return;
    }
    this.shared.counters.commands++;
    this.deps.log.info('sparkplug: DCMD written', { metric: metric.name, address });
    await this.deps.audit?.write({ action: 'sparkplug_write', user: SPARKPLUG_USER, detail: { ...detail, ok: true } });
  }

  /** Counts a refusal; logs it, at most one line per REFUSAL_LOG_MS with the number left out before it (a host sending junk must not fill the log). */
  #refuse(kind: string, why: string, metric?: string): void {
    this.shared.counters.refused++;
    const now = performance.now();
    if (now - this.#refusalLoggedAt < REFUSAL_LOG_MS) {
      this.#refusalsUnlogged++;
      return;
    }
    this.#refusalLoggedAt = now;
    const unlogged = this.#refusalsUnlogged;
    this.#refusalsUnlogged = 0;
    this.deps.log.warn(`sparkplug: ${kind} refused`, {
      reason: why,
      ...(metric !== undefined ? { metric } : {}),
      ...(unlogged > 0 ? { notLoggedBefore: unlogged } : {}),
    });
  }

  #error(message: string): void {
    this.shared.lastError = { message, at: this.deps.clock.now() };
  }
}
