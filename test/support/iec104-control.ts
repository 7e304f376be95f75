// Test and bench support: a control station on our own IEC 104 codec (device/protocol/iec104/),
// connected to the unit's station over TCP. It keeps what arrives (U functions, decoded ASDUs with
// their arrival time), acknowledges every I-frame at once with an S-frame, and sends I-frames with
// its own send and receive counts. A bad frame or ASDU from the unit fails loudly.
import { connect, type Socket } from 'node:net';
import * as v from 'valibot';
import { connectionSchema, type IecConnection } from '../../device/model/sections/iec.ts';
import { type Apdu, encodeApdu, SEQ_MODULO, seqAdd, type UFunction } from '../../device/protocol/iec104/apci.ts';
import { type Asdu, decodeAsdu, encodeAsdu } from '../../device/protocol/iec104/asdu.ts';
import { createIec104Framer } from '../../device/protocol/iec104/framer.ts';
import { LOOPBACK } from './ports.ts';

export class ControlStation {
  readonly us: UFunction[] = [];
  readonly asdus: Asdu[] = [];
  /** performance.now() when each ASDU of `asdus` arrived */
  readonly arrivedAt: number[] = [];
  /** the first bad frame or ASDU the unit sent (the socket is closed then) */
  fault: string | undefined;
  closed = false;
  private vs = 0;
  private vr = 0;
  private readonly framer = createIec104Framer();

  private constructor(readonly socket: Socket) {
    socket.on('data', (b: Buffer) => {
      const now = performance.now();
      for (const e of this.framer.push(b)) {
        if (e.type === 'error') return this.fail(`the station sent a bad frame: ${e.code}`);
        const a = e.apdu;
        if (a.format === 'U') this.us.push(a.fn);
        if (a.format !== 'I') continue;
        this.vr = seqAdd(this.vr, 1);
        const d = decodeAsdu(a.asdu);
        if (!d.ok) return this.fail(`the station sent a bad ASDU: ${d.error.code}`);
        this.asdus.push(d.value);
        this.arrivedAt.push(now);
        this.send({ format: 'S', nr: this.vr % SEQ_MODULO });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (this.closed = true));
  }

  static open(port: number, host = LOOPBACK): Promise<ControlStation> {
    return new Promise((resolve, reject) => {
      const s = connect({ host, port, noDelay: true });
      s.once('connect', () => resolve(new ControlStation(s)));
      s.once('error', reject);
    });
  }

  private fail(why: string): void {
    this.fault ??= why;
    this.socket.destroy();
  }

  send(a: Apdu): void {
    this.socket.write(encodeApdu(a));
  }
  command(asdu: Asdu): void {
    this.send({ format: 'I', ns: this.vs, nr: this.vr, asdu: encodeAsdu(asdu) });
    this.vs = seqAdd(this.vs, 1);
  }
  /** the ASDUs received from index `from` on that match */
  find(pred: (a: Asdu) => boolean, from = 0): Asdu[] {
    return this.asdus.slice(from).filter(pred);
  }
  close(): void {
    this.socket.destroy();
  }
}

/**
 * An IEC 104 connection of the unit's station on the PLC's DT area as the tests and benches lay it
 * out: read index DT2000, event ring DT2010 with 501 entries, command block DT2600; `timeout` how
 * long the PLC may take over a request or a command's decision.
 */
export const dtConnection = (timeout: number): IecConnection => ({
  ...(v.getDefaults(connectionSchema) as IecConnection),
  area: 'DT',
  plc_buffer_rbm: 2000,
  plc_buffer_m: 2010,
  plc_buffer_m_depth: 501,
  plc_buffer_c: 2600,
  timeout,
});
