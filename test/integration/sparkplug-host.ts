// A Sparkplug B host application for the edge node's tests: an mqtt.js client on `spBv1.0/#` that
// keeps every message with its QoS and retain flag and decodes all but STATE with Eclipse Tahu's
// `sparkplug-payload`, as a SCADA host would. Tahu gives 64-bit values as Long objects, unsigned.
import mqtt, { type MqttClient } from 'mqtt';
import spp from 'sparkplug-payload';
import { LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';

const tahu = spp.get('spBv1.0')!;
export type TahuPayload = ReturnType<typeof tahu.decodePayload>;
export type TahuMetric = NonNullable<TahuPayload['metrics']>[number];

/** A Tahu value as a bigint; `signed` reads it as two's complement (Int64). */
export const big = (v: unknown, signed = false): bigint => (signed ? BigInt.asIntN(64, BigInt(String(v))) : BigInt(String(v)));

export interface Seen {
  topic: string;
  /** NBIRTH, DBIRTH, DDATA, NDEATH, DDEATH, … (the topic's third level) */
  type: string;
  qos: number;
  retain: boolean;
  payload: TahuPayload;
}

export class Host {
  readonly seen: Seen[] = [];
  /** topics of messages from the edge node Tahu could not decode (each wait fails when there is one) */
  readonly undecodable: string[] = [];
  private constructor(readonly client: MqttClient) {}

  static async start(port: number, id = 'test-host'): Promise<Host> {
    const client = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${port}`, { clientId: id, clean: true, reconnectPeriod: 200 });
    const host = new Host(client);
    client.on('message', (topic, payload, packet) => {
      const type = topic.split('/')[2] ?? '';
      if (topic.startsWith('spBv1.0/STATE/')) return;
      let decoded: TahuPayload;
      try {
        decoded = tahu.decodePayload(payload);
      } catch {
        // only the junk a test sends on the command topics: whatever the edge node publishes decodes
        if (type !== 'NCMD' && type !== 'DCMD') host.undecodable.push(topic);
        return;
      }
      host.seen.push({ topic, type, qos: packet.qos, retain: packet.retain, payload: decoded });
    });
    await client.subscribeAsync('spBv1.0/#', { qos: 1 });
    return host;
  }

  /** Messages of `type` seen after the first `from`. */
  of(type: string, from = 0): Seen[] {
    return this.seen.slice(from).filter((s) => s.type === type);
  }

  /** Waits for the `n`th message of `type` after `from` and answers it. */
  async next(type: string, from = 0, n = 1, ms = 20_000): Promise<Seen> {
    await until(
      () => {
        if (this.undecodable.length > 0) throw new Error(`the host could not decode ${this.undecodable.join(', ')}`);
        return this.of(type, from).length >= n;
      },
      ms,
      `${type} #${n} at the host`,
    );
    return this.of(type, from)[n - 1]!;
  }

  /** An NCMD/DCMD as Tahu encodes it. */
  async command(topic: string, metrics: TahuMetric[]): Promise<void> {
    await this.client.publishAsync(topic, Buffer.from(tahu.encodePayload({ timestamp: Date.now(), metrics })), { qos: 0 });
  }

  async stop(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/** The value of a metric named `name` in a payload (bdSeq …) as a bigint. */
export const metricBig = (p: TahuPayload, name: string): bigint => big(p.metrics!.find((m) => m.name === name)!.value, true);
