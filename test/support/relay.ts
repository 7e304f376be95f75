// A TCP relay to a broker (or any server) on the loopback that a test controls: it cuts every relayed
// connection at once, or refuses new ones while down. Used by the MQTT and Sparkplug B tests.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { LOOPBACK } from './ports.ts';

/**
 * A TCP relay to the broker's plain listener that the test controls: `cut()` destroys every relayed
 * connection (the broker sees the unit vanish without DISCONNECT); while `down` every new
 * connection is counted with its time and closed at once (a broker that is down).
 */
export class Relay {
  readonly server: Server;
  readonly open = new Set<Socket>();
  /** each relayed connection: the client's side, the target's side */
  private readonly pairs = new Set<[Socket, Socket]>();
  down = false;
  attempts: number[] = [];
  port = 0;

  constructor(private readonly target: number) {
    this.server = createServer((c) => {
      c.on('error', () => {});
      if (this.down) {
        this.attempts.push(performance.now());
        c.destroy();
        return;
      }
      const b = connect(this.target, LOOPBACK);
      b.on('error', () => c.destroy());
      c.on('close', () => b.destroy());
      b.on('close', () => c.destroy());
      c.pipe(b);
      b.pipe(c);
      this.open.add(c);
      this.open.add(b);
      const pair: [Socket, Socket] = [c, b];
      this.pairs.add(pair);
      c.on('close', () => {
        this.open.delete(c);
        this.open.delete(b);
        this.pairs.delete(pair);
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, LOOPBACK, () => r()));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** The connections open now carry nothing more either way, and stay open (a peer that hangs); new ones are relayed. */
  freeze(): void {
    for (const [c, b] of this.pairs) {
      c.unpipe(b);
      b.unpipe(c);
      c.pause();
      b.pause();
    }
    this.pairs.clear();
  }

  cut(): void {
    for (const s of this.open) s.destroy();
    this.open.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
