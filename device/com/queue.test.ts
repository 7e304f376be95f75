import { once } from 'node:events';
import { type AddressInfo, createServer, connect as netConnect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { type Abort, LinkError, LinkQueue } from './queue.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const queue = (over: Partial<ConstructorParameters<typeof LinkQueue>[0]> = {}) => new LinkQueue({ clock: systemClock, timeoutMs: 200, retries: 1, ...over });

describe('link transaction queue', () => {
  it('puts one transaction on the wire at a time', async () => {
    const q = queue();
    let onWire = 0;
    let most = 0;
    const tx = (user: string) =>
      q.submit({
        user,
        idempotent: true,
        run: async () => {
          onWire++;
          most = Math.max(most, onWire);
          await sleep(5);
          onWire--;
          return user;
        },
      });
    const results = await Promise.all(['a', 'b', 'a', 'c', 'b'].map(tx));
    expect(results).toEqual(['a', 'b', 'a', 'c', 'b']);
    expect(most).toBe(1);
    expect(q.stats.requests).toBe(5);
  });

  it('serves users round-robin: a busy user does not starve the others', async () => {
    const q = queue();
    const order: string[] = [];
    const tx = (user: string, i: number) =>
      q.submit({
        user,
        idempotent: true,
        run: async () => {
          order.push(`${user}${i}`);
          await sleep(1);
        },
      });
    const all = [...Array.from({ length: 5 }, (_, i) => tx('logger', i)), tx('client', 0), tx('client', 1)];
    await Promise.all(all);
    // the first logger transaction was already on the wire; then the users alternate
    expect(order).toEqual(['logger0', 'logger1', 'client0', 'logger2', 'client1', 'logger3', 'logger4']);
  });

  it('times out a silent exchange, retries a read once, never a write', async () => {
    const q = queue({ timeoutMs: 30, retries: 1 });
    let reads = 0;
    let writes = 0;
    const silent = (abort: Abort) => new Promise<never>((_, reject) => abort.onAbort(() => reject(new Error('aborted'))));
    await expect(
      q.submit({
        user: 'u',
        idempotent: true,
        run: (s) => {
          reads++;
          return silent(s);
        },
      }),
    ).rejects.toMatchObject({ code: 'timeout' });
    await expect(
      q.submit({
        user: 'u',
        idempotent: false,
        run: (s) => {
          writes++;
          return silent(s);
        },
      }),
    ).rejects.toBeInstanceOf(LinkError);
    expect(reads).toBe(2);
    expect(writes).toBe(1);
    expect(q.stats).toMatchObject({ timeouts: 3, retries: 1 });
  });

  it('a read that fails once and then answers succeeds', async () => {
    const q = queue();
    let n = 0;
    await expect(
      q.submit({
        user: 'u',
        idempotent: true,
        run: async () => {
          if (n++ === 0) throw new Error('BCC');
          return 7;
        },
      }),
    ).resolves.toBe(7);
    expect(q.stats).toMatchObject({ errors: 1, retries: 1, requests: 2 });
  });

  it('refuses more than the per-user limit at once, and everything after close', async () => {
    const q = queue({ maxPerUser: 2 });
    const slow = () => q.submit({ user: 'u', idempotent: true, run: () => sleep(20) });
    const first = [slow(), slow(), slow()]; // the first is taken from the list at once
    await expect(slow()).rejects.toMatchObject({ code: 'queue_full' });
    q.close();
    await expect(slow()).rejects.toMatchObject({ code: 'closed' });
    const settled = await Promise.allSettled(first);
    expect(settled.filter((s) => s.status === 'rejected').length).toBe(2);
  });

  it('counts the time the wire is busy, the attempt still on the wire included', async () => {
    let now = 1000;
    const q = queue({ clock: { now: () => now } });
    const ends: (() => void)[] = [];
    const tx = () => q.submit({ user: 'u', idempotent: true, run: () => new Promise<void>((r) => ends.push(r)) });
    const done = [tx(), tx()];
    await vi.waitFor(() => expect(ends.length).toBe(1));
    now += 30;
    // a reading while the first is on the wire: counted as a request, and busy for its 30 ms so far
    expect(q.statsNow()).toMatchObject({ requests: 1, busyMs: 30 });
    expect(q.stats.busyMs).toBe(0);
    now += 10;
    ends[0]!();
    await vi.waitFor(() => expect(ends.length).toBe(2));
    expect(q.statsNow()).toMatchObject({ requests: 2, busyMs: 40 });
    now += 20;
    // the reset while the second runs: only its time after the reset counts
    q.resetCounters();
    now += 5;
    ends[1]!();
    await Promise.all(done);
    now += 100;
    expect(q.statsNow()).toMatchObject({ requests: 0, busyMs: 5 });
    expect(q.busyShare(50, q.statsNow().busyMs)).toBe(0.1);
  });

  it('does not repeat an attempt the retry rule calls final (an error answer of the PLC)', async () => {
    const q = queue({ retries: 2, retryable: (e) => !(e instanceof Error && e.message === 'final') });
    let runs = 0;
    await expect(
      q.submit({
        user: 'u',
        idempotent: true,
        run: async () => {
          runs++;
          throw new Error('final');
        },
      }),
    ).rejects.toMatchObject({ code: 'failed' });
    expect(runs).toBe(1);
    await expect(
      q.submit({
        user: 'u',
        idempotent: true,
        run: async () => {
          runs++;
          throw new Error('again');
        },
      }),
    ).rejects.toMatchObject({ code: 'failed' });
    expect(runs).toBe(4);
  });

  it('hands a callback caller the answer in the turn it came, before the next transaction starts', async () => {
    const q = queue();
    const events: string[] = [];
    let answer: ((v: number) => void) | undefined;
    q.enqueue<number>(
      {
        user: 'thread',
        idempotent: true,
        start: (_abort, answered) => {
          answer = answered;
        },
      },
      (v) => events.push(`answered ${v}`),
      () => events.push('failed'),
    );
    q.enqueue<number>(
      {
        user: 'logger',
        idempotent: true,
        start: () => {
          events.push('next started');
        },
      },
      () => {},
      () => {},
    );
    expect(events).toEqual([]);
    answer!(5); // as the channel's data handler does: no promise turn in between
    expect(events).toEqual(['answered 5', 'next started']);
    q.close();
    await sleep(1);
  });

  it('reports a callback that throws and goes on with the next transaction', async () => {
    const faults: unknown[] = [];
    const q = queue({ fault: (e) => faults.push(e) });
    q.enqueue<number>(
      { user: 'a', idempotent: true, run: async () => 1 },
      () => {
        throw new Error('bug in a caller');
      },
      () => {},
    );
    await expect(q.submit({ user: 'b', idempotent: true, run: async () => 2 })).resolves.toBe(2);
    expect(faults).toEqual([new Error('bug in a caller')]);
  });

  it('gives each attempt its own deadline on the shared timer, and a transaction with its own timeout its own timer', async () => {
    const q = queue({ timeoutMs: 60, retries: 0 });
    const silent = (abort: Abort) => new Promise<never>((_, reject) => abort.onAbort(() => reject(new Error('aborted'))));
    await expect(q.submit({ user: 'u', idempotent: true, run: () => sleep(40).then(() => 1) })).resolves.toBe(1);
    // the timer left running by the first (due 60 ms after it started) must not end the second early
    const t0 = Date.now();
    await expect(q.submit({ user: 'u', idempotent: true, run: silent })).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    const t1 = Date.now();
    await expect(q.submit({ user: 'u', idempotent: true, timeoutMs: 150, run: silent })).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - t1).toBeGreaterThanOrEqual(145);
    expect(q.stats.timeouts).toBe(2);
  });

  it('restarts an attempt’s clock when asked (a request put on the wire after a resync read), on the shared timer and on its own', async () => {
    vi.useFakeTimers();
    try {
      for (const timeoutMs of [undefined, 150]) {
        const q = queue({ timeoutMs: 100, retries: 0 });
        let answer: ((v: number) => void) | undefined;
        const got = q.submit<number>({
          user: 'u',
          idempotent: true,
          ...(timeoutMs ? { timeoutMs } : {}),
          start: (_abort, answered, _failed, restartClock) => {
            answer = answered;
            setTimeout(restartClock, 90); // 90 ms in: the whole timeout again from here
          },
        });
        await vi.advanceTimersByTimeAsync(90 + (timeoutMs ?? 100) - 1);
        answer!(3);
        await expect(got).resolves.toBe(3);
        expect(q.stats.timeouts).toBe(0);
        const late = q.submit<number>({ user: 'u', idempotent: true, start: (_a, _ok, _failed, restartClock) => setTimeout(restartClock, 90) });
        const failed = expect(late).rejects.toMatchObject({ code: 'timeout' });
        // due at 190 ms; a deadline acts one turn of the loop after it comes due (its setImmediate)
        await vi.advanceTimersByTimeAsync(190);
        await vi.advanceTimersByTimeAsync(1);
        await failed;
        q.close();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['the shared timer', undefined],
    ['a timer of its own', 150],
  ] as const)('an answer that arrived in time is taken after a stall of the event loop past the deadline, not its timeout (%s)', async (_how, own) => {
    // a real socket pair: the peer's answer is on its way while this process is stalled, as a PLC's
    // answer waits in the kernel while the unit is busy
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const peer = once(server, 'connection') as Promise<[Socket]>;
    const socket: Socket = netConnect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    const [plc] = await peer;
    try {
      const q = queue({ timeoutMs: 100, retries: 0 });
      const answer = q.submit<string>({
        user: 'logger',
        idempotent: true,
        ...(own ? { timeoutMs: own } : {}),
        start: (_abort, answered) => {
          socket.once('data', (d) => answered(d.toString()));
          socket.write('%01#RDD0010000101**\r');
          plc.write('%01$RD0100**\r'); // the PLC answers at once
          // the process is busy past the deadline: when the loop turns, the timer is due and the answer readable
          const until = performance.now() + (own ?? 100) + 150;
          while (performance.now() < until);
        },
      });
      expect(await answer).toBe('%01$RD0100**\r');
      expect(q.stats.timeouts).toBe(0);
      // the deadline still holds for a peer that says nothing
      const silent = q.submit({ user: 'logger', idempotent: true, ...(own ? { timeoutMs: own } : {}), start: () => {} });
      await expect(silent).rejects.toMatchObject({ code: 'timeout' });
    } finally {
      socket.destroy();
      plc.destroy();
      server.close();
    }
  });
});
