// The REST port's connection slots under attack (issue 34 item 1; docs/hardening.md DOS-2): the
// server has 64 slots, and the red team took them all with sockets from an address outside ip1..ip2
// that never finish their headers, so the allowed client was served 1 request of 30. Now an address
// outside the range is closed when it connects, one address inside it holds at most 16 slots, and
// headers have a deadline. Attackers leave from addresses of their own on loopback (127.0.x.y).
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rest, restSchema } from '../../device/model/sections/rest.ts';
import { REST_LIMITS } from '../../device/net/http-limits.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { freePort } from '../support/ports.ts';
import { addresses, hold, served, UNFINISHED_HEADERS } from '../support/slow-clients.ts';

/** short, so that the header deadline is seen in a test; the slots and caps are the production ones */
const HEADERS_MS = 1500;
const ALLOWED = '127.0.0.1';

let d: TestDaemon;
let admin: Client;
let port: number;

beforeAll(async () => {
  d = await startTestDaemon({ httpLimits: { headersMs: HEADERS_MS } });
  admin = await d.admin();
  port = await freePort();
  const cfg: Rest = { ...(v.getDefaults(restSchema) as Rest), api_enable: true, use_encryption: false, http_port: port, ip1: '127.0.0.1', ip2: '127.0.0.3' };
  const r = await admin.post('/config/pew_api', cfg);
  expect(r.status, r.text).toBe(200);
  await d.ctx.rest.settled();
  expect(d.ctx.rest.status().listening).toBe(true);
});

afterAll(async () => {
  await d?.stop();
});

describe('REST connection slots (DOS-2)', () => {
  it('64 unfinished requests from outside ip1..ip2 hold no slot: each is closed when it connects, the allowed client gets 30 of 30', async () => {
    const attack = await hold({ port, from: addresses(5, 4), count: REST_LIMITS.maxConnections, first: UNFINISHED_HEADERS });
    try {
      expect(await served(port, '/api/v1/info', ALLOWED, 30)).toBe(30);
      await expect.poll(() => attack.open(), { timeout: 10_000 }).toBe(0);
      expect(attack.answers()).toEqual([]); // closed, never answered
    } finally {
      attack.stop();
    }
  });

  it('one address inside the range holds at most its share: the rest get 429 too_many_connections, the allowed client gets 30 of 30', async () => {
    const attack = await hold({ port, from: ['127.0.0.2'], count: REST_LIMITS.maxConnections, first: UNFINISHED_HEADERS });
    try {
      const refused = REST_LIMITS.maxConnections - REST_LIMITS.maxPerAddress;
      await expect.poll(() => attack.answers().filter((a) => a.startsWith('HTTP/1.1 429 ')).length).toBe(refused);
      expect(await served(port, '/api/v1/info', ALLOWED, 30)).toBe(30);
    } finally {
      attack.stop();
    }
  });

  it('headers that never end are cut at the header deadline', async () => {
    const slow = await hold({ port, from: ['127.0.0.3'], count: 4, first: UNFINISHED_HEADERS, drip: { everyMs: 200 } });
    try {
      await expect.poll(() => slow.open(), { timeout: 20_000 }).toBe(0);
      for (const ms of slow.closedAfterMs()) expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    } finally {
      slow.stop();
    }
  });
});
