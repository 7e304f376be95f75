// The edge node's session (Sparkplug 3.0 chapters 5 and 6) as a pure state machine: it owns bdSeq
// and seq and says what to publish next; the caller does the I/O (MQTT, the PLC, the disk).
//
// How the caller drives it, per connection:
//   1. before each CONNECT: the will is NDEATH with willBdSeq();
//   2. when that CONNECT is written: connectSent() (persist the bdSeq it gives);
//   3. after CONNACK and the subscriptions (NCMD, DCMD, STATE): connected();
//   4. hostState() for each STATE of the primary host; rebirth() for an NCMD rebirth request;
//      deviceBirth()/data()/deviceDeath() as the PLC's values come and go; stop() before an
//      intentional disconnect; closed() when the connection is gone.
// Every method that returns publishes gives them in the order they must go out, each with the seq
// (and bdSeq) to encode, taken at that moment: seq runs 0..255 and wraps across NBIRTH, DBIRTH,
// DDATA and DDEATH; NBIRTH sets it to 0; NDEATH has none.
import { acceptedTimestamp, type HostState, stateCounts } from './state.ts';

/** A device message with its seq. */
export type DevicePublish = { type: 'DBIRTH' | 'DDATA' | 'DDEATH'; seq: number };
export type Publish = { type: 'NBIRTH'; seq: 0; bdSeq: number } | DevicePublish | { type: 'NDEATH'; bdSeq: number };

/** disconnected; connected and waiting for the primary host; the node born (NBIRTH sent). */
export type NodePhase = 'disconnected' | 'awaiting_host' | 'birthed';
/** the device: not born in this node's birth yet, born (DBIRTH sent), or dead (DDEATH sent). */
export type DevicePhase = 'unborn' | 'birthed' | 'dead';

export interface SessionOptions {
  /** the primary host's id; '' = none, births follow the connection */
  primaryHostId: string;
  /** the bdSeq of the last CONNECT sent, kept across restarts; undefined = none ever (the first is 0) */
  lastBdSeq?: number;
}

/** What a STATE did: whether it counted, what to publish, and whether to disconnect after it. */
export interface HostStep {
  counted: boolean;
  publish: Publish[];
  /** the host went offline: publish the NDEATH, disconnect, connect again (a new CONNECT, bdSeq + 1) */
  disconnect: boolean;
}

export class EdgeSession {
  #node: NodePhase = 'disconnected';
  #device: DevicePhase = 'unborn';
  #seq = 0;
  #lastBdSeq: number | undefined;
  #bdSeq: number | undefined;
  #hostTs: number | undefined;
  #hostOnline = false;
  readonly #primaryHostId: string;

  constructor(o: SessionOptions) {
    this.#primaryHostId = o.primaryHostId;
    this.#lastBdSeq = o.lastBdSeq;
  }

  get node(): NodePhase {
    return this.#node;
  }
  get device(): DevicePhase {
    return this.#device;
  }
  /** this connection's bdSeq (its will's, its NBIRTH's); undefined before the first CONNECT */
  get bdSeq(): number | undefined {
    return this.#bdSeq;
  }
  /** the seq of the last message published */
  get seq(): number {
    return this.#seq;
  }
  /** whether values go out now as DDATA; otherwise the caller keeps them (store and forward) */
  get publishing(): boolean {
    return this.#node === 'birthed' && this.#device === 'birthed';
  }

  /**
   * The bdSeq of the next CONNECT's will: 0 for the first ever, then one more than the last CONNECT
   * sent, 255 followed by 0 (topics-nbirth-bdseq-increment, message-flow-edge-node-birth-publish-will-message-payload-bdSeq).
   */
  willBdSeq(): number {
    return this.#lastBdSeq === undefined ? 0 : (this.#lastBdSeq + 1) & 0xff;
  }

  /**
   * The CONNECT with willBdSeq() in its will was written: that is this connection's bdSeq, which its
   * NBIRTH repeats (payloads-ndeath-bdseq, topics-nbirth-bdseq-matching). Returns it, to be kept.
   * An attempt that failed before the CONNECT was written does not call this and uses up no number.
   */
  connectSent(): number {
    const n = this.willBdSeq();
    this.#lastBdSeq = n;
    this.#bdSeq = n;
    this.#node = 'disconnected';
    return n;
  }

  /**
   * Connected (CONNACK) and subscribed. Without a primary host the births start: NBIRTH now
   * (message-flow-edge-node-birth-publish-connect); with one, wait for its online STATE
   * (message-flow-edge-node-birth-publish-phid-wait, operational-behavior-edge-node-birth-sequence-wait),
   * each connection anew.
   */
  connected(): Publish[] {
    if (this.#bdSeq === undefined) throw new Error('connected() before connectSent()');
    this.#hostOnline = false;
    this.#device = 'unborn';
    if (this.#primaryHostId !== '') {
      this.#node = 'awaiting_host';
      return [];
    }
    return [this.#nbirth()];
  }

  /**
   * A STATE of the primary host (its topic already matched: message-flow-edge-node-birth-publish-phid-wait-id).
   * Older than the newest accepted: ignored. Online while waiting: the births start. Offline while
   * born: NDEATH, then disconnect and connect again (message-flow-edge-node-birth-publish-phid-offline,
   * operational-behavior-edge-node-termination-host-offline, -reconnect).
   */
  hostState(s: HostState): HostStep {
    if (!stateCounts(this.#hostTs, s)) return { counted: false, publish: [], disconnect: false };
    this.#hostTs = acceptedTimestamp(this.#hostTs, s);
    this.#hostOnline = s.online;
    if (s.online && this.#node === 'awaiting_host') return { counted: true, publish: [this.#nbirth()], disconnect: false };
    if (!s.online && this.#node === 'birthed') {
      const bdSeq = this.#bdSeq!;
      this.#end();
      return { counted: true, publish: [{ type: 'NDEATH', bdSeq }], disconnect: true };
    }
    return { counted: true, publish: [], disconnect: false };
  }

  /** whether the primary host's last counted STATE said online (false until one came on this connection) */
  get hostOnline(): boolean {
    return this.#hostOnline;
  }

  /**
   * A rebirth request (NCMD Node Control/Rebirth = true): data stops, NBIRTH again with seq 0 and the
   * same bdSeq, then the caller sends deviceBirth() with fresh values (operational-behavior-data-commands-rebirth-action-1,
   * -2, -3). Ignored while not born (waiting for the host, or disconnected).
   */
  rebirth(): Publish[] {
    return this.#node === 'birthed' ? [this.#nbirth()] : [];
  }

  /** DBIRTH after the node's NBIRTH, or again after a DDEATH (payloads-dbirth-seq); null while the node is not born. */
  deviceBirth(): DevicePublish | null {
    if (this.#node !== 'birthed') return null;
    this.#device = 'birthed';
    return { type: 'DBIRTH', seq: this.#next() };
  }

  /** DDATA for changed values (payloads-ddata-seq-inc); null while not publishing: keep the values for later. */
  data(): DevicePublish | null {
    return this.publishing ? { type: 'DDATA', seq: this.#next() } : null;
  }

  /** DDEATH when the PLC stops answering (operational-behavior-device-ddeath); no DDATA until the next DBIRTH. Null when the device is not born. */
  deviceDeath(): DevicePublish | null {
    if (this.#node !== 'birthed' || this.#device !== 'birthed') return null;
    this.#device = 'dead';
    return { type: 'DDEATH', seq: this.#next() };
  }

  /**
   * An intentional disconnect (settings saved, switched off, shutdown): NDEATH first, then DISCONNECT
   * (operational-behavior-edge-node-intentional-disconnect-ndeath). Nothing when not connected.
   */
  stop(): Publish[] {
    if (this.#node === 'disconnected' || this.#bdSeq === undefined) return [];
    const bdSeq = this.#bdSeq;
    this.#end();
    return [{ type: 'NDEATH', bdSeq }];
  }

  /** The connection is gone (the broker sends our will). */
  closed(): void {
    this.#end();
  }

  #end(): void {
    this.#node = 'disconnected';
    this.#device = 'unborn';
  }

  #nbirth(): Publish {
    this.#node = 'birthed';
    this.#device = 'unborn';
    this.#seq = 0;
    return { type: 'NBIRTH', seq: 0, bdSeq: this.#bdSeq! };
  }

  #next(): number {
    this.#seq = (this.#seq + 1) & 0xff;
    return this.#seq;
  }
}
