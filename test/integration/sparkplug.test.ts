// The Sparkplug B edge node (device/sparkplug; docs/sparkplug.md) against Debian's mosquitto started
// by the test, reached through a TCP relay the test can cut, with a virtual FP-XH on COM1 whose
// memory holds the logger's points, and a host application that decodes every message with Eclipse
// Tahu's sparkplug-payload (sparkplug-host.ts). The tck-ids of Sparkplug 3.0 are named in the titles.
import { readdirSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeValue } from '../../device/logger/values.ts';
import type { Log } from '../../device/model/sections/log.ts';
import type { LogRecord } from '../../device/model/sections/logfile.ts';
import type { ServicesStatus } from '../../device/model/service-status.ts';
import { BACKOFF_FIRST_MS } from '../../device/mqtt/connection.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { Relay } from '../support/relay.ts';
import { logDefaults, logFile, record, until } from './logger-rig.ts';
import { type Broker, COM1, type MqttRig, plcPublish, publish, sleep, startBroker, startMqttRig, subscribe } from './mqtt-rig.ts';
import { big, Host, metricBig, type Seen, type TahuMetric } from './sparkplug-host.ts';

let rig: MqttRig;
let broker: Broker | undefined;
let relay: Relay;
let host: Host;
let port: number;

const G = 'Plant1';
const E = 'Unit7';
const D = 'PLC1';
const topic = (type: string, device = false) => `spBv1.0/${G}/${type}/${E}${device ? `/${D}` : ''}`;

/**
 * The logger's points on COM1 (the PLC's interface): one of each of the logger's 16 types, a bit, one
 * with a deadband; `sent`: the value as the metric carries it when it is not the value written (a
 * DateTime in ms since 1970).
 */
const POINTS: (Partial<LogRecord> & { value: number | bigint | string | boolean; datatype: string; sent?: unknown })[] = [
  { id: 1, name: 'Level', type: 0, area: 1, reg_addr: '100', dim: 'mm', value: -1234, datatype: 'Int16' },
  { id: 2, name: 'Count', type: 5, area: 1, reg_addr: '102', sparkplug_writable: true, value: 4_000_000_000, datatype: 'UInt32' },
  { id: 3, name: 'Temp', type: 7, area: 1, reg_addr: '104', dim: '°C', value: 21.5, datatype: 'Float' },
  { id: 4, name: 'Energy', type: 9, area: 1, reg_addr: '106', value: -(2n ** 40n), datatype: 'Int64' },
  { id: 5, name: 'Recipe', type: 13, area: 1, reg_addr: '110', str_len: 8, value: 'pump', datatype: 'String' },
  { id: 6, name: 'Running', type: 0, area: 6, reg_addr: '10', value: true, datatype: 'Boolean' },
  { id: 7, name: 'Flow', type: 14, area: 1, reg_addr: '120', sparkplug_deadband: 0.5, value: -0.25, datatype: 'Double' },
  { id: 8, name: 'Speed', type: 1, area: 1, reg_addr: '130', value: 65_000, datatype: 'UInt16' },
  { id: 9, name: 'Status', type: 2, area: 1, reg_addr: '131', value: 0xbeef, datatype: 'UInt16' },
  { id: 10, name: 'Flags', type: 3, area: 1, reg_addr: '132', value: 0b1010_0101, datatype: 'UInt16' },
  { id: 11, name: 'Total', type: 4, area: 1, reg_addr: '134', value: -2_000_000_000, datatype: 'Int32' },
  { id: 12, name: 'Mask', type: 6, area: 1, reg_addr: '136', value: 0xdeadbeef, datatype: 'UInt32' },
  { id: 13, name: 'Gain', type: 8, area: 1, reg_addr: '138', value: 1.25, datatype: 'Float' },
  { id: 14, name: 'Serial', type: 10, area: 1, reg_addr: '140', value: 2n ** 63n + 5n, datatype: 'UInt64' },
  { id: 15, name: 'Code', type: 11, area: 1, reg_addr: '144', value: 'AB', datatype: 'String' },
  {
    id: 16,
    name: 'Stamp',
    type: 12,
    area: 1,
    reg_addr: '146',
    value: '2026-12-04 03:00:00',
    sent: BigInt(Date.UTC(2026, 11, 4, 3, 0, 0)),
    datatype: 'DateTime',
  },
  { id: 17, name: 'Pressure', type: 15, area: 1, reg_addr: '150', value: 3.5, datatype: 'Double' },
];

function setPoint(p: (typeof POINTS)[number], value: number | bigint | string | boolean): void {
  if (typeof value === 'boolean') rig.plc.memory.writeBits('R', 16 * Number(p.reg_addr!.slice(0, -1)) + Number.parseInt(p.reg_addr!.slice(-1), 16), [value]);
  else rig.plc.memory.writeWords('DT', Number(p.reg_addr), encodeValue(p.type!, value, 'little', p.str_len));
}

/** A Tahu metric value as the test wrote it. */
function asWritten(type: string, v: unknown): unknown {
  if (type === 'Int64') return big(v, true);
  if (type === 'UInt64' || type === 'DateTime') return big(v);
  if (type === 'UInt32') return Number(big(v));
  return v;
}

const sparkplug = { sparkplug_enable: true, sparkplug_group_id: G, sparkplug_edge_node_id: E, sparkplug_device_id: D, sparkplug_poll: 0.2 };
const saveSparkplug = (over: Record<string, unknown> = {}) => rig.saveMqtt({ broker_addr: `mqtt://${LOOPBACK}:${relay.port}`, qos: 1, ...sparkplug, ...over });
/**
 * How long a wait for the edge node's state or counters may take: a pass needs the virtual PLC's
 * answer over the pseudo-terminal, which a busy machine delays (10 s ran out in a CI run beside the
 * browser tests); a condition met ends the wait at once.
 */
const WAIT_MS = 60_000;
const spStatus = async () => ((await rig.admin.get('/config/service_status')).body as ServicesStatus).services.find((s) => s.service === 'mqtt')!.sparkplug!;
const seq = (s: Seen) => Number(big(s.payload.seq));
/** The jobs waiting in the edge node's history queue on the unit's storage. */
const jobs = () => readdirSync(join(rig.d.dataDir, 'queues', 'sparkplug')).filter((f) => f.endsWith('.job'));
const historical = (s: Seen) => s.payload.metrics!.some((m) => m.isHistorical === true);
/** The first DDATA after `from` that carries live values (values kept while not born may come before it). */
async function liveData(from: number): Promise<Seen> {
  await until(() => host.of('DDATA', from).some((d) => !historical(d)), 20_000, 'a live DDATA at the host');
  return host.of('DDATA', from).find((d) => !historical(d))!;
}

beforeAll(async () => {
  port = await freePort();
  broker = await startBroker(port);
  relay = new Relay(port);
  await relay.listen();
  host = await Host.start(port);
  rig = await startMqttRig();
  for (const p of POINTS) setPoint(p, p.value);
  const log: Log = {
    ...logDefaults(),
    log_def: [
      logFile({
        id: 1,
        name: 'Line1',
        interface: COM1,
        trigger: 0,
        records: POINTS.map(({ value: _v, datatype: _d, sent: _s, ...r }) => record({ ...r, if: COM1 })),
      }),
    ],
  };
  const r = await rig.admin.post('/config/pew_log', log);
  expect(r.status, r.text).toBe(200);
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  await host?.stop();
  await relay?.close();
  await broker?.stop();
});

describe('Sparkplug B edge node', () => {
  it('NBIRTH then DBIRTH: seq 0, bdSeq 0, Rebirth false; every metric (each of the 16 logger types and a bit) with name, alias, datatype and the PLC value (principles-birth-certificates-order, topics-nbirth-seq-num, topics-nbirth-bdseq-increment, payloads-nbirth-qos, payloads-dbirth-seq, topics-dbirth-metrics, payloads-alias-birth-requirement)', async () => {
    await saveSparkplug();
    const nbirth = await host.next('NBIRTH');
    expect(host.seen[0]!.type).toBe('NBIRTH'); // the first message of the edge node
    expect(nbirth).toMatchObject({ topic: topic('NBIRTH'), qos: 0, retain: false });
    expect(seq(nbirth)).toBe(0);
    expect(metricBig(nbirth.payload, 'bdSeq')).toBe(0n);
    const rebirth = nbirth.payload.metrics!.find((m) => m.name === 'Node Control/Rebirth')!;
    expect([rebirth.type, rebirth.value, rebirth.alias]).toEqual(['Boolean', false, undefined]);

    const dbirth = await host.next('DBIRTH');
    expect(dbirth).toMatchObject({ topic: topic('DBIRTH', true), qos: 0, retain: false });
    expect(seq(dbirth)).toBe(1);
    expect(dbirth.payload.metrics!.map((m) => [m.name, Number(big(m.alias)), m.type, asWritten(m.type, m.value)])).toEqual(
      POINTS.map((p, i) => [`Line1/${p.name}`, i + 1, p.datatype, p.sent ?? p.value]),
    );
    expect(dbirth.payload.metrics![0]!.properties).toEqual({ engUnit: { type: 'String', value: 'mm' } });
    expect(host.of('DDATA')).toEqual([]); // nothing changed: no DDATA (principles-rbe-recommended)
    await until(async () => (await spStatus()).state === 'online', WAIT_MS, 'status online');
    expect(await spStatus()).toMatchObject({ enabled: true, state: 'online', bdSeq: 0, metrics: POINTS.length });
  });

  it('report by exception: one changed word gives one DDATA with only its alias and the next seq; a move within the deadband is not sent (topics-ddata-payload, payloads-alias-data-cmd-requirement, payloads-ddata-seq-inc)', async () => {
    const from = host.seen.length;
    setPoint(POINTS[6]!, -0.5); // Flow: 0.25 within its deadband of 0.5
    setPoint(POINTS[0]!, 77); // Level
    const ddata = await host.next('DDATA', from);
    expect(ddata).toMatchObject({ topic: topic('DDATA', true), qos: 0, retain: false });
    expect(ddata.payload.metrics!.map((m) => [m.name, Number(big(m.alias)), m.type, m.value])).toEqual([[undefined, 1, 'Int16', 77]]);
    expect(seq(ddata)).toBe(2);
    setPoint(POINTS[6]!, 0.75); // Flow: 1 from the last value sent
    const next = await host.next('DDATA', from, 2);
    expect(next.payload.metrics!.map((m) => [Number(big(m.alias)), m.value])).toEqual([[7, 0.75]]);
    expect(seq(next)).toBe(3);
  });

  it('NCMD Node Control/Rebirth: NBIRTH with the same bdSeq and seq 0, then DBIRTH with the current values (operational-behavior-data-commands-rebirth-action-1, -2, -3)', async () => {
    const from = host.seen.length;
    setPoint(POINTS[1]!, 12345);
    await host.command(topic('NCMD'), [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true } as TahuMetric]);
    const nbirth = await host.next('NBIRTH', from);
    expect([seq(nbirth), metricBig(nbirth.payload, 'bdSeq')]).toEqual([0, 0n]);
    const dbirth = await host.next('DBIRTH', from);
    expect(seq(dbirth)).toBe(1);
    expect(dbirth.payload.metrics!.find((m) => m.name === 'Line1/Count')!.value).toSatisfy((v) => Number(big(v)) === 12345);
    expect(dbirth.payload.metrics!.find((m) => m.name === 'Line1/Level')!.value).toBe(77);
  });

  it('DCMD: a metric marked writable is written into PLC memory through the link, audited and reported by exception; a read-only metric, an unknown alias, the wrong datatype and bytes that are no payload are refused and change nothing (operational-behavior-data-commands-dcmd-verb, -dcmd-metric-name, -dcmd-metric-value)', async () => {
    const memory = () => rig.plc.memory.readWords('DT', 100, 4);
    const before = memory();
    const refused = (await spStatus()).counters.refused;
    await host.command(topic('DCMD', true), [
      { alias: 1, type: 'Int16', value: 5 }, // Level: read-only
      { alias: 99, type: 'Int16', value: 5 }, // no such metric
      { alias: 2, type: 'String', value: '5' }, // Count is UInt32
    ] as unknown as TahuMetric[]);
    await until(async () => (await spStatus()).counters.refused === refused + 3, WAIT_MS, 'three refusals');
    expect(memory()).toEqual(before);
    // bytes that are no Sparkplug payload, on both command topics: refused, the node stays up
    await host.client.publishAsync(topic('DCMD', true), Buffer.from([0x0a, 0xff, 0xff, 0x01]));
    await host.client.publishAsync(topic('NCMD'), Buffer.from('{"not": "protobuf"}'));
    await until(async () => (await spStatus()).counters.refused === refused + 5, WAIT_MS, 'two more refusals');
    expect(memory()).toEqual(before);

    const from = host.seen.length;
    await host.command(topic('DCMD', true), [{ alias: 2, type: 'UInt32', value: 3_000_000_000 } as unknown as TahuMetric]);
    const ddata = await host.next('DDATA', from);
    expect(ddata.payload.metrics!.map((m) => [Number(big(m.alias)), Number(big(m.value))])).toEqual([[2, 3_000_000_000]]);
    expect(rig.plc.memory.readWords('DT', 102, 2)).toEqual(encodeValue(5, 3_000_000_000, 'little'));
    expect(rig.plc.memory.readWords('DT', 100, 1)).toEqual(before.slice(0, 1));
    const audit = (await rig.d.ctx.audit.read())
      .split('\n')
      .filter((l) => l.includes('sparkplug_write'))
      .map((l) => JSON.parse(l) as { detail: Record<string, unknown> });
    expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ metric: 'Line1/Count', address: 'DT102', value: '3000000000', ok: true })]);
  });

  it('the PLC stops answering: one DDEATH with the next seq, no DDATA with values, then DBIRTH with the current values once it answers (operational-behavior-device-ddeath, payloads-ddeath-seq, payloads-dbirth-seq)', async () => {
    const from = host.seen.length;
    try {
      rig.plc.setFault({ kind: 'error', code: 61 }); // every read refused
      const ddeath = await host.next('DDEATH', from);
      expect(ddeath).toMatchObject({ topic: topic('DDEATH', true), qos: 0, retain: false });
      // a pass under way when the fault came may have read a block before it and not the ones
      // after: its DDATA carries those blocks' metrics as null (not read), and nothing else
      const at = host.seen.indexOf(ddeath);
      const between = host.seen.slice(from, at);
      expect(between.length).toBeLessThanOrEqual(1);
      for (const d of between) {
        expect(d.type).toBe('DDATA');
        expect(d.payload.metrics!.map((m) => m.value)).toEqual(d.payload.metrics!.map(() => null)); // is_null, as Tahu decodes it
      }
      expect(seq(ddeath)).toBe((seq(host.seen[at - 1]!) + 1) & 0xff);
      await until(async () => (await spStatus()).state === 'link_down', WAIT_MS, 'status link_down');
      setPoint(POINTS[0]!, 81);
      rig.plc.setFault({ kind: 'none' });
      const dbirth = await host.next('DBIRTH', from);
      expect(seq(dbirth)).toBe((seq(ddeath) + 1) & 0xff);
      expect(dbirth.payload.metrics!.find((m) => m.name === 'Line1/Level')!.value).toBe(81);
      expect(host.seen.slice(from).map((s) => s.type)).toEqual([...between.map(() => 'DDATA'), 'DDEATH', 'DBIRTH']);
      await until(async () => (await spStatus()).state === 'online', WAIT_MS, 'status online');
    } finally {
      rig.plc.setFault({ kind: 'none' }); // the cases after this one need the PLC
    }
  });

  it('the broker loses the connection: its will is NDEATH (QoS 1, not retained) with this bdSeq; after the reconnect NBIRTH bdSeq + 1, and the next will carries it (payloads-ndeath-will-message-qos, -retain, payloads-ndeath-bdseq, topics-nbirth-bdseq-increment)', async () => {
    for (const n of [0n, 1n]) {
      const from = host.seen.length;
      relay.cut(); // no DISCONNECT: the broker publishes the will
      const will = await host.next('NDEATH', from);
      expect(will).toMatchObject({ topic: topic('NDEATH'), qos: 1, retain: false });
      expect(will.payload.seq).toBeUndefined(); // topics-ndeath-seq
      expect(will.payload.metrics!.map((m) => [m.name, m.type])).toEqual([['bdSeq', 'Int64']]);
      expect(metricBig(will.payload, 'bdSeq')).toBe(n);
      // the will made before its CONNECT, not an NDEATH published by the node
      expect(big(will.payload.timestamp)).toBeLessThanOrEqual(big(host.seen.slice(0, from).findLast((s) => s.type === 'NBIRTH')!.payload.timestamp));
      const nbirth = await host.next('NBIRTH', from);
      expect([seq(nbirth), metricBig(nbirth.payload, 'bdSeq')]).toEqual([0, n + 1n]);
      expect(seq(await host.next('DBIRTH', from))).toBe(1);
    }
  });

  it('the raw PLC-driven MQTT client keeps working beside it, on its own connection', async () => {
    const sub = await subscribe(port, 'plant/#');
    await plcPublish(rig, 'plant/raw', 'hello');
    await until(() => sub.got.length === 1, WAIT_MS, 'raw publish at the subscriber');
    expect(sub.got[0]!.payload.toString()).toBe('hello');
    await sub.stop();
  });

  it('an intentional stop (settings saved) publishes NDEATH with this bdSeq before it disconnects, and the next connection births with bdSeq + 1 (operational-behavior-edge-node-intentional-disconnect-ndeath)', async () => {
    const from = host.seen.length;
    const bdSeq = BigInt((await spStatus()).bdSeq!);
    await saveSparkplug({ sparkplug_poll: 0.3 });
    const lastBirth = host.seen.slice(0, from).findLast((s) => s.type === 'DBIRTH')!;
    const ndeath = await host.next('NDEATH', from);
    expect(ndeath).toMatchObject({ topic: topic('NDEATH'), qos: 1, retain: false });
    expect(metricBig(ndeath.payload, 'bdSeq')).toBe(bdSeq);
    // published at the stop, not the will (whose timestamp is its CONNECT's, before the births)
    expect(big(ndeath.payload.timestamp)).toBeGreaterThanOrEqual(big(lastBirth.payload.timestamp));
    const nbirth = await host.next('NBIRTH', from);
    expect(metricBig(nbirth.payload, 'bdSeq')).toBe(bdSeq + 1n);
    expect(host.of('NDEATH', from)).toHaveLength(1); // the DISCONNECT made the broker drop the will
  });

  it("a stop while the broker hangs is bounded: NDEATH and DISCONNECT unanswered, the socket closed, the next connection births with bdSeq + 1; the old connection's will carries the old bdSeq (payloads-ndeath-bdseq, topics-nbirth-bdseq-increment)", async () => {
    const from = host.seen.length;
    const bdSeq = BigInt((await spStatus()).bdSeq!);
    relay.freeze(); // the open connections carry nothing more; new ones pass
    await saveSparkplug({ sparkplug_poll: 0.25 }); // resolves once the old run stopped and the new one started
    const nbirth = await host.next('NBIRTH', from);
    expect(metricBig(nbirth.payload, 'bdSeq')).toBe(bdSeq + 1n);
    // the NDEATH published into the hung connection never left the relay; the broker sends that
    // connection's will when the new one takes over the client id: a host matches it to no live NBIRTH
    const will = await host.next('NDEATH', from);
    expect(metricBig(will.payload, 'bdSeq')).toBe(bdSeq);
    expect(big(will.payload.timestamp)).toBeLessThan(big(nbirth.payload.timestamp)); // the will, made at its CONNECT
    await until(async () => (await spStatus()).state === 'online', 20_000, 'online again');
    relay.cut(); // the raw client's hung connection too
  });

  it("a save while the connection waits for CONNACK leaves no client behind: the stopped run's client never connects again (with its old will and client id it would take over the next run's session)", async () => {
    // a broker that takes each CONNECT and never answers; only the edge node's connections count
    const edge: Socket[] = [];
    const silent = createServer((c) => {
      c.on('error', () => {});
      c.on('data', (b) => {
        if (b.includes('-spb') && !edge.includes(c)) edge.push(c);
      });
    });
    await new Promise<void>((r) => silent.listen(0, LOOPBACK, () => r()));
    try {
      await saveSparkplug({ broker_addr: `mqtt://${LOOPBACK}:${(silent.address() as AddressInfo).port}` });
      await until(() => edge.length === 1, WAIT_MS, "the edge node's CONNECT at the silent broker");
      await saveSparkplug(); // back to the broker: the run waiting for CONNACK is stopped
      await until(() => edge[0]!.destroyed, WAIT_MS, "the stopped run's socket closed");
      await until(async () => (await spStatus()).state === 'online', WAIT_MS, 'online on the broker');
      // a client that came back would connect again one reconnect period (1 s) after its socket closed
      await sleep(3 * BACKOFF_FIRST_MS);
      expect(edge.length).toBe(1);
    } finally {
      for (const c of edge) c.destroy();
      silent.close();
    }
  });

  it('a primary host: nothing is published until its online STATE, births after it; an offline STATE older than the last one is ignored, a counting one gives NDEATH, a new connection (bdSeq + 1) and births once online again (message-flow-edge-node-birth-publish-phid-wait, -phid-wait-id, -phid-wait-timestamp, -phid-offline, operational-behavior-edge-node-termination-host-offline-timestamp, -reconnect)', async () => {
    const state = 'spBv1.0/STATE/scada1';
    const from = host.seen.length;
    await saveSparkplug({ sparkplug_primary_host_id: 'scada1' });
    await host.next('NDEATH', from); // the old session's end
    await until(async () => (await spStatus()).state === 'awaiting_host', WAIT_MS, 'awaiting the host');
    const bdSeq = BigInt((await spStatus()).bdSeq!);
    const waiting = host.seen.length;
    setPoint(POINTS[0]!, 79);
    await publish(port, 'spBv1.0/STATE/other', JSON.stringify({ online: true, timestamp: 1000 }), { retain: true });
    expect((await spStatus()).state).toBe('awaiting_host');

    await publish(port, state, JSON.stringify({ online: true, timestamp: 2000 }), { retain: true });
    const nbirth = await host.next('NBIRTH', waiting);
    // the changed value and the other host's STATE gave nothing: the births are the first messages since
    expect(host.seen[waiting]).toBe(nbirth);
    expect(metricBig(nbirth.payload, 'bdSeq')).toBe(bdSeq);
    expect((await host.next('DBIRTH', waiting)).payload.metrics![0]!.value).toBe(79);

    // older than the last accepted: ignored, then a counting one
    await publish(port, state, JSON.stringify({ online: false, timestamp: 1999 }), { retain: true });
    const born = host.seen.length;
    setPoint(POINTS[0]!, 80);
    expect((await liveData(born)).payload.metrics![0]!.value).toBe(80); // still publishing
    expect(host.of('NDEATH', born)).toEqual([]);
    await publish(port, state, JSON.stringify({ online: false, timestamp: 2000 }), { retain: true });
    const death = await host.next('NDEATH', born);
    expect(metricBig(death.payload, 'bdSeq')).toBe(bdSeq);
    await until(async () => (await spStatus()).bdSeq === Number(bdSeq) + 1 && (await spStatus()).state === 'awaiting_host', WAIT_MS, 'reconnected');
    const after = host.seen.length;
    await publish(port, state, JSON.stringify({ online: true, timestamp: 3000 }), { retain: true });
    expect(metricBig((await host.next('NBIRTH', after)).payload, 'bdSeq')).toBe(bdSeq + 1n);
    // the births end with DBIRTH: its values are what the next run's passes compare with (a run
    // stopped between NBIRTH and DBIRTH leaves nothing to compare with, and the next run's first
    // pass only takes the values, as after a start)
    expect((await host.next('DBIRTH', after)).payload.metrics![0]!.value).toBe(80);
    await publish(port, state, '', { retain: true }); // clear the retained STATEs
    await publish(port, 'spBv1.0/STATE/other', '', { retain: true });
  });

  it('store-and-forward: while the primary host is not online nothing is published and each pass with changes is kept on the unit; after its online STATE come NBIRTH and DBIRTH with the current values, then the kept values as DDATA with is_historical and the times of their reads, oldest first, the seq going on, then live DDATA (message-flow-edge-node-birth-publish-phid-wait, payloads-ddata-seq-inc; is_historical: Sparkplug 3.0 chapter 6)', async () => {
    const state = 'spBv1.0/STATE/scada2';
    const from = host.seen.length;
    await saveSparkplug({ sparkplug_primary_host_id: 'scada2' });
    await host.next('NDEATH', from); // the old session's end
    await until(async () => (await spStatus()).state === 'awaiting_host', WAIT_MS, 'awaiting the host');
    const waiting = host.seen.length;
    const base = (await spStatus()).counters;
    // one metric moved per step, each step waits for its pass to be kept: one job a pass
    const steps: [(typeof POINTS)[number], number | bigint | string][] = [
      [POINTS[0]!, 11], // Level
      [POINTS[4]!, 'mix'], // Recipe
      [POINTS[0]!, 13],
      [POINTS[3]!, 2n ** 50n + 1n], // Energy, beyond 2^53 as a JSON number would be lost: kept as a bigint
      [POINTS[0]!, 14],
    ];
    for (const [i, [p, value]] of steps.entries()) {
      setPoint(p, value);
      await until(async () => (await spStatus()).counters.stored === base.stored + i + 1, WAIT_MS, `step ${i + 1} kept`);
    }
    expect(host.seen.slice(waiting)).toEqual([]); // nothing published while the host is not online
    expect(jobs()).toHaveLength(steps.length);

    await publish(port, state, JSON.stringify({ online: true, timestamp: 5000 }), { retain: true });
    const nbirth = await host.next('NBIRTH', waiting);
    expect(host.seen[waiting]).toBe(nbirth);
    const dbirth = await host.next('DBIRTH', waiting);
    expect(seq(dbirth)).toBe(1);
    // the births carry the current values, not the kept ones
    expect(dbirth.payload.metrics!.find((m) => m.name === 'Line1/Level')!.value).toBe(14);
    expect(dbirth.payload.metrics!.find((m) => m.name === 'Line1/Recipe')!.value).toBe('mix');
    const replayed = await host.next('DDATA', waiting, steps.length);
    const kept = host.of('DDATA', waiting).slice(0, steps.length);
    expect(kept.at(-1)).toBe(replayed);
    expect(host.seen.slice(waiting).map((s) => s.type)).toEqual(['NBIRTH', 'DBIRTH', ...steps.map(() => 'DDATA')]);
    expect(kept.map(seq)).toEqual(steps.map((_, i) => i + 2));
    const alias = (p: (typeof POINTS)[number]) => POINTS.indexOf(p) + 1;
    expect(kept.map((d) => d.payload.metrics!.map((m) => [Number(big(m.alias)), m.name, m.isHistorical, asWritten(m.type, m.value)]))).toEqual(
      steps.map(([p, value]) => [[alias(p), undefined, true, value]]),
    );
    // each value with the time of its read: in the order taken, before the births
    const times = kept.map((d) => big(d.payload.metrics![0]!.timestamp));
    expect([...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    expect(times.at(-1)!).toBeLessThanOrEqual(big(nbirth.payload.timestamp));
    await until(async () => (await spStatus()).counters.replayed === base.replayed + steps.length, WAIT_MS, 'replayed counted');
    expect((await spStatus()).counters).toMatchObject({ stored: base.stored + steps.length, dropped: base.dropped });
    await until(() => jobs().length === 0, WAIT_MS, 'the jobs acknowledged');

    // then live values as before
    setPoint(POINTS[0]!, 15);
    const live = await host.next('DDATA', waiting, steps.length + 1);
    expect(historical(live)).toBe(false);
    expect(seq(live)).toBe(steps.length + 2);
    expect(live.payload.metrics!.map((m) => [Number(big(m.alias)), m.value])).toEqual([[1, 15]]);
    await publish(port, state, '', { retain: true });
  });

  it('switched off: NDEATH, then nothing; the bdSeq is kept on the unit for the next start', async () => {
    const from = host.seen.length;
    const bdSeq = (await spStatus()).bdSeq!;
    await saveSparkplug({ sparkplug_enable: false });
    expect(metricBig((await host.next('NDEATH', from)).payload, 'bdSeq')).toBe(BigInt(bdSeq));
    expect(await spStatus()).toMatchObject({ enabled: false, state: 'off' });
    const { readBdSeq, bdSeqFile } = await import('../../device/sparkplug/bdseq-file.ts');
    expect(await readBdSeq(bdSeqFile(rig.d.dataDir))).toBe(bdSeq);
  });
});
