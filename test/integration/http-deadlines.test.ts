// Half-open connections on the console's listeners (issue 34 item 3; docs/hardening.md DOS-3): the
// red team held 1,024 connections to the console for minutes by dripping a body byte every 5 s
// (node's defaults: 5 min for a request, no cap). Now every HTTP listener of the unit has the same
// limits (device/net/http-limits.ts): a body that stalls is cut, headers and the TLS handshake have
// a deadline, and a listener holds a bounded number of connections. The deadlines are short here
// by the daemon's test option; the production values are 10 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { addresses, bodyToCome, hold, served, UNFINISHED_HEADERS } from '../support/slow-clients.ts';

const LIMITS = { headersMs: 1000, bodyWindowMs: 1000, maxConnections: 32 };
const LOGIN = '/rest/api/v1/authentication';

const faults = (d: TestDaemon) => d.ctx.consoleListeners!().map((l) => l.faults);

describe('the console over plain HTTP', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({ httpLimits: LIMITS });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('a body dripped a byte at a time is cut, never counted as a fault; the console serves on', async () => {
    const drip = await hold({ port: d.port, from: addresses(7, 4), count: 16, first: bodyToCome(LOGIN), drip: { everyMs: 200 } });
    try {
      await expect.poll(() => drip.open(), { timeout: 30_000 }).toBe(0);
      for (const ms of drip.closedAfterMs()) expect(ms).toBeGreaterThanOrEqual(LIMITS.bodyWindowMs - 100);
    } finally {
      drip.stop();
    }
    expect(await served(d.port, LOGIN, '127.0.0.1', 1, 401)).toBe(1);
    expect(faults(d)).toEqual([0]);
  });

  it('the listener holds at most maxConnections: the ones over it are closed unanswered, the others meet the header deadline (408)', async () => {
    const over = 8;
    const attack = await hold({ port: d.port, from: addresses(8, 4), count: LIMITS.maxConnections + over, first: UNFINISHED_HEADERS });
    try {
      await expect.poll(() => attack.open(), { timeout: 30_000 }).toBe(0);
      const answers = attack.answers();
      // a connection of the step before may still be closing on the server's side: it holds a slot for that moment
      expect(answers.filter((a) => a.startsWith('HTTP/1.1 408 ')).length).toBeLessThanOrEqual(LIMITS.maxConnections);
      expect(attack.sockets.length - answers.length).toBeGreaterThanOrEqual(over);
    } finally {
      attack.stop();
    }
    expect(await served(d.port, LOGIN, '127.0.0.1', 1, 401)).toBe(1);
  });
});

describe('the console over HTTPS and the HTTP port that redirects to it', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startTestDaemon({ tls: true, httpLimits: LIMITS });
  });
  afterAll(async () => {
    await d?.stop();
  });

  it('HTTPS: a dripped body is cut, and a connection that never begins its TLS handshake is closed', async () => {
    const port = d.tlsPort!;
    const drip = await hold({ port, from: addresses(9, 4), count: 16, first: bodyToCome(LOGIN), drip: { everyMs: 200 }, tls: true });
    const mute = await hold({ port, from: ['127.0.9.9'], count: 4 });
    try {
      await expect.poll(() => drip.open() + mute.open(), { timeout: 30_000 }).toBe(0);
    } finally {
      drip.stop();
      mute.stop();
    }
    expect(faults(d)).toEqual([0, 0]);
  });

  it('the redirect port: headers that never end are cut at the deadline', async () => {
    const slow = await hold({ port: d.port, from: addresses(10, 2), count: 8, first: UNFINISHED_HEADERS, drip: { everyMs: 200 } });
    try {
      await expect.poll(() => slow.open(), { timeout: 30_000 }).toBe(0);
      for (const ms of slow.closedAfterMs()) expect(ms).toBeGreaterThanOrEqual(LIMITS.headersMs - 100);
    } finally {
      slow.stop();
    }
  });
});
