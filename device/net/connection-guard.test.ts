import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionGuard } from './connection-guard.ts';

const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
const log = {
  warn: (msg: string, fields?: Record<string, unknown>) => {
    logged.push({ msg, ...(fields ? { fields } : {}) });
  },
};
let server: Server | undefined;

afterEach(async () => {
  logged.length = 0;
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((r) => s.close(() => r()));
});

/** A listener whose connections echo, throw on the byte 0xFF and reject a task on 0xFE. */
async function listen(guard: ConnectionGuard, idleMs = 0): Promise<number> {
  server = createServer((s) =>
    guard.adopt(s, (c) => {
      c.idleAfter(idleMs);
      s.on(
        'data',
        c.wrap((b: Buffer) => {
          if (b.includes(0xff)) throw new RangeError('exception 1 to FC128 out of range');
          if (b.includes(0xfe)) return c.task(Promise.reject(new Error('async failure')));
          if (b.includes(0x0a)) c.touch(); // a "frame" ends with a newline
          s.write(b);
        }),
      );
    }),
  );
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server!.address() as AddressInfo).port;
}

const open = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
const closed = (s: Socket) =>
  new Promise<number>((r) => {
    const t0 = Date.now();
    s.once('close', () => r(Date.now() - t0));
    s.resume();
  });
const echo = (s: Socket, text: string) =>
  new Promise<string>((r) => {
    s.once('data', (b) => r(b.toString()));
    s.write(text);
  });

describe('ConnectionGuard', () => {
  it('a handler that throws ends only its connection: counted, logged once with listener and peer', async () => {
    const guard = new ConnectionGuard({ listener: 'test:1', log });
    const port = await listen(guard);
    const bad = await open(port);
    const good = await open(port);
    const gone = closed(bad);
    bad.write(Buffer.from([0xff]));
    bad.write(Buffer.from([0xff])); // a second one on the same connection is no second fault
    await gone;
    expect(guard.faults).toBe(1);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.fields).toMatchObject({ listener: 'test:1', error: 'RangeError: exception 1 to FC128 out of range' });
    expect(logged[0]!.fields!.peer).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await echo(good, 'still here\n')).toBe('still here\n');
    const again = await open(port);
    expect(await echo(again, 'new\n')).toBe('new\n');
    good.destroy();
    again.destroy();
  });

  it('a rejected task is a fault of its connection too', async () => {
    const guard = new ConnectionGuard({ listener: 'test:2', log });
    const port = await listen(guard);
    const s = await open(port);
    const gone = closed(s);
    s.write(Buffer.from([0xfe]));
    await gone;
    expect(guard.faults).toBe(1);
    expect(logged[0]!.fields!.error).toBe('Error: async failure');
  });

  it('idle timer: only touch() counts, bytes that never form a frame do not keep the connection', async () => {
    const guard = new ConnectionGuard({ listener: 'test:3', log });
    const port = await listen(guard, 400);
    const dribbler = await open(port);
    const talker = await open(port);
    const dribblerGone = closed(dribbler);
    let talkerClosed = false;
    talker.once('close', () => {
      talkerClosed = true;
    });
    const timer = setInterval(() => {
      dribbler.write('x');
      talker.write('frame\n');
    }, 100);
    const ms = await dribblerGone;
    clearInterval(timer);
    // closed by the idle timer (400 ms), not sooner; were its bytes to keep it, it would stay open
    // for good and the test would run out of time
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(talkerClosed).toBe(false);
    expect(guard.faults).toBe(0);
    talker.destroy();
  });
});
