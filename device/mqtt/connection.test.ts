import { createServer, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOOPBACK } from '../../test/support/ports.ts';
import { END_WAIT_MS, endClient } from './connection.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('endClient', () => {
  it('a client whose end never calls back: after the wait its socket is destroyed and the stop goes on', async () => {
    vi.useFakeTimers();
    const destroy = vi.fn();
    const client = { endAsync: () => new Promise<void>(() => undefined), stream: { destroy }, options: {} } as unknown as MqttClient;
    const how = endClient(client);
    await vi.advanceTimersByTimeAsync(END_WAIT_MS - 1);
    expect(destroy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await how).toBe('destroyed');
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('a client that ends: resolves as ended, the socket left to the library', async () => {
    const destroy = vi.fn();
    const client = { endAsync: () => Promise.resolve(), stream: { destroy }, options: {} } as unknown as MqttClient;
    expect(await endClient(client)).toBe('ended');
    expect(destroy).not.toHaveBeenCalled();
  });

  // manualConnect (the Sparkplug B run's way): mqtt.js 5.16 then clears its disconnecting mark once
  // the end called back, which for a client waiting for CONNACK is before its socket closed
  it.each([false, true])(
    'a real mqtt.js client (manualConnect %s) against a broker that never answers: ended, and no further connect attempt',
    async (manualConnect) => {
      const sockets: Socket[] = [];
      const server = createServer((s) => {
        sockets.push(s);
        s.resume(); // reads (and drops) the CONNECT, so the close from the client is seen
      });
      await new Promise<void>((r) => server.listen(0, LOOPBACK, r));
      const port = (server.address() as { port: number }).port;
      try {
        const client = mqtt.connect(`mqtt://${LOOPBACK}:${port}`, { reconnectPeriod: 50, connectTimeout: 60_000, manualConnect });
        if (manualConnect) client.connect();
        const closed = new Promise<void>((r) => client.once('close', () => r()));
        await vi.waitFor(() => expect(sockets.length).toBe(1));
        expect(await endClient(client)).toBe('ended');
        await closed;
        await vi.waitFor(() => expect(sockets[0]!.closed).toBe(true));
        // ended for good: the library plans no reconnect (it would open a second socket 50 ms later)
        expect(client.reconnecting).toBe(false);
        expect((client as unknown as { reconnectTimer: unknown }).reconnectTimer).toBeNull();
        expect(sockets).toHaveLength(1);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  );
});
