// Support of the browser tests that run against the real engines (COM links, redirect threads):
// a console suite whose daemon has in-process virtual PLCs on its serial connectors, free TCP ports
// from the kernel, "another program" that holds a port, and a MEWTOCOL-COM client over TCP that
// counts the bytes it sends and receives.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { expect } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import { asciiToBytes, bytesToAscii, type MewRequest, mewCommandFrames } from '../../device/protocol/index.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import type { SimHwOptions } from '../../sim/hw.ts';
import type { CpuModel } from '../../sim/plc/profiles.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { freePort, freePorts, LOOPBACK } from '../support/ports.ts';
import { consoleSuite, type TestDaemon } from './support.ts';

export const HOST = LOOPBACK;

/** A MEWTOCOL virtual PLC on an in-process serial wire with its own line settings. */
export function serialPlc(model: CpuModel, framing: SerialFraming): SerialPlcAttachment {
  return new SerialPlcAttachment(new VirtualPlc({ model }), { protocol: 'MEWTOCOL', framing });
}

/** The hw seam's connector of a wire: the daemon opens it with its interface settings. */
export const connector =
  (wire: SerialPlcAttachment) =>
  (s: SerialSettings): ByteChannel =>
    wire.open(s);

/** consoleSuite (support.ts) with the virtual PLCs on the serial connectors. */
export const liveConsoleSuite = (virtualPorts: NonNullable<SimHwOptions['virtualPorts']>) => consoleSuite({ serial: { virtualPorts } });

export { freePort, freePorts };

/** Saves COM1 enabled with MEWTOCOL at the wire's line settings and waits until its link runs. */
export async function enableCom1(d: TestDaemon, framing: SerialFraming, timeoutMs: number): Promise<void> {
  const c = await d.admin();
  const pew = (await c.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces.find((i) => i.name === 'COM1')!, {
    enabled: true,
    protocol: 'MEWTOCOL',
    baudrate: framing.baud,
    bits: framing.bits,
    parity: framing.parity,
    stopbits: framing.stopbits,
    timeout: timeoutMs,
  });
  const r = await c.post('/config/pew', pew);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
}

/** Another program listening on a free port: it counts the connections it gets and closes them. */
export async function otherProgram(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A MEWTOCOL-COM client (SCADA, FPWIN) on one TCP connection: one request at a time, first answer frame. */
export class MewClient {
  bytesSent = 0;
  bytesReceived = 0;
  private buffer = '';
  private waiting: ((frame: string) => void) | undefined;
  private constructor(private readonly socket: Socket) {
    socket.on('data', (b: Buffer) => {
      this.bytesReceived += b.length;
      this.buffer += bytesToAscii(new Uint8Array(b));
      const end = this.buffer.indexOf('\r');
      if (end >= 0 && this.waiting) {
        const frame = this.buffer.slice(0, end + 1);
        this.buffer = this.buffer.slice(end + 1);
        const w = this.waiting;
        this.waiting = undefined;
        w(frame);
      }
    });
    socket.on('error', () => {});
  }

  static connect(port: number): Promise<MewClient> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: HOST, port });
      s.once('error', reject);
      s.once('connect', () => resolve(new MewClient(s)));
    });
  }

  /** Sends one request to any station (`EE`) and gives the first answer frame (CR included). */
  ask(req: MewRequest, ms = 5000): Promise<string> {
    const frame = mewCommandFrames('EE', req)[0]!;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no answer to ${JSON.stringify(frame)} within ${ms} ms`));
      }, ms);
      this.waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      const bytes = asciiToBytes(frame);
      this.bytesSent += bytes.length;
      this.socket.write(bytes);
    });
  }

  close(): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((r) => {
      this.socket.once('close', () => r());
      this.socket.destroy();
    });
  }
}

/** One request on a connection of its own. */
export async function mewAsk(port: number, req: MewRequest): Promise<string> {
  const c = await MewClient.connect(port);
  try {
    return await c.ask(req);
  } finally {
    await c.close();
  }
}
