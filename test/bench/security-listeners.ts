// Denial-of-service figures of the unit's HTTP listeners for `npm run bench` (part `security: REST
// slots, dripping connections`; issue 34 items 1 and 3, docs/hardening.md DOS-2, DOS-3), with the
// production limits (device/net/http-limits.ts) of the bundled daemon in a process of its own:
//   - the REST slot attack: 64 sockets that never finish their headers, from addresses outside
//     ip1..ip2, then from one address inside it, while the allowed client asks 30 times: the share
//     it is served (goal 100 %);
//   - 1,024 connections to the console from 16 addresses, each dripping a body byte every 5 s as the
//     red team did: the daemon's RSS growth (goal ≤ 5 MB) right after its start, and again after
//     4,096 ordinary requests brought its heap to its working size; how many it held, and the
//     longest any stayed open (node's defaults: 5 min).
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as v from 'valibot';
import { type Rest, restSchema } from '../../device/model/sections/rest.ts';
import { CONSOLE_LIMITS, REST_LIMITS } from '../../device/net/http-limits.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { addresses, bodyToCome, type Held, hold, served, UNFINISHED_HEADERS } from '../support/slow-clients.ts';
import { freePorts, HOST, rssMB, startServer } from './processes.ts';
import type { Row } from './stats.ts';

const REQUESTS = 30;
const DRIPPING = 1024;
const DRIP_EVERY_MS = 5000;
/** how long the dripping connections are watched at most (the production body window is 10 s) */
const WATCH_MS = 60_000;

/** ordinary requests before the dripping connections */
const WARM_REQUESTS = 2048;

/** `count` logins with a body that is no JSON (answered 400 at once) from `from`. */
async function posted(port: number, from: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve) => {
      const req = httpRequest(
        {
          host: HOST,
          port,
          path: '/rest/api/v1/authentication',
          method: 'POST',
          agent: false,
          localAddress: from,
          headers: { 'content-type': 'application/json' },
        },
        (res) => res.resume().once('end', () => resolve()),
      );
      req.once('error', () => resolve());
      req.end('{"username":');
    });
  }
}

/** The allowed client's share of REQUESTS answered 200 while `attack` holds its sockets. */
async function servedShare(port: number, attack: Held): Promise<number> {
  try {
    return (100 * (await served(port, '/api/v1/info', '127.0.0.1', REQUESTS))) / REQUESTS;
  } finally {
    attack.stop();
  }
}

/** DRIPPING connections to the console dripping their bodies until the daemon has closed them all (WATCH_MS at most). */
async function dripRound(port: number, pid: number) {
  await sleep(1000);
  const before = await rssMB(pid);
  const t0 = performance.now();
  const drip = await hold({
    port,
    from: addresses(20, 16),
    count: DRIPPING,
    first: bodyToCome('/rest/api/v1/authentication'),
    drip: { everyMs: DRIP_EVERY_MS },
  });
  let peak = before;
  let heldMax = 0;
  try {
    while (drip.open() > 0 && performance.now() - t0 < WATCH_MS) {
      peak = Math.max(peak, await rssMB(pid));
      heldMax = Math.max(heldMax, drip.open());
      await sleep(250);
    }
  } finally {
    drip.stop();
  }
  return { before, growth: peak - before, heldMax, stillOpen: drip.open(), longestS: Math.max(0, ...drip.closedAfterMs()) / 1000 };
}

/** `daemon`: the node arguments that start the daemon (the bundle, as `npm run bench` does). */
export async function measureSecurityListeners(rows: Row[], daemon: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-security-'));
  const [httpPort, restPort] = (await freePorts(2)) as [number, number];
  const server = await startServer([...daemon, '--port', String(httpPort), '--data', join(dir, 'data')], httpPort, '/rest/api/v1/authentication');
  try {
    const admin = new Client(`http://${HOST}:${httpPort}`);
    await admin.post('/rest/api/v1/authentication/setup', ADMIN);
    await admin.login(ADMIN);
    const rest: Rest = {
      ...(v.getDefaults(restSchema) as Rest),
      api_enable: true,
      use_encryption: false,
      http_port: restPort,
      ip1: '127.0.0.1',
      ip2: '127.0.0.3',
    };
    const saved = await admin.post('/config/pew_api', rest);
    if (saved.status !== 200) throw new Error(`saving pew_api failed: ${saved.text}`);
    // the REST server follows the save on its own: wait (10 s at most) until it answers
    for (let t = performance.now(); (await served(restPort, '/api/v1/info', '127.0.0.1', 1)) !== 1; await sleep(50)) {
      if (performance.now() - t > 10_000) throw new Error('the REST port does not answer');
    }

    const slots = REST_LIMITS.maxConnections;
    const outside = await servedShare(restPort, await hold({ port: restPort, from: addresses(5, 4), count: slots, first: UNFINISHED_HEADERS }));
    rows.push({
      figure: 'REST slot attack from outside ip1..ip2: allowed client served (%)',
      ours: outside,
      note: `${slots} sockets from 4 addresses outside the range never finish their headers; ${REQUESTS} GETs from the allowed address; goal 100`,
    });
    const inside = await servedShare(restPort, await hold({ port: restPort, from: ['127.0.0.2'], count: slots, first: UNFINISHED_HEADERS }));
    rows.push({
      figure: 'REST slot attack from one address inside: allowed client served (%)',
      ours: inside,
      note: `${slots} unfinished sockets from one address in the range (it holds ${REST_LIMITS.maxPerAddress}, the rest get 429); goal 100`,
    });

    const pid = server.child.pid!;
    const fresh = await dripRound(httpPort, pid);
    // a unit has served requests before: its heap has grown to its working size, which is not what
    // the dripping connections hold (ordinary GETs and posted bodies, 32 at a time)
    await Promise.all(addresses(21, 32).map((from) => served(httpPort, '/rest/api/v1/authentication', from, WARM_REQUESTS / 32, 401)));
    await Promise.all(addresses(22, 32).map((from) => posted(httpPort, from, WARM_REQUESTS / 32)));
    const warm = await dripRound(httpPort, pid);
    const how = `a body byte every ${DRIP_EVERY_MS / 1000} s from 16 addresses to the console; RSS sampled every 250 ms; goal ≤ 5`;
    rows.push({
      figure: `${DRIPPING} dripping connections: RSS growth (MB)`,
      ours: fresh.growth,
      note: `${how}; from ${fresh.before.toFixed(1)} MB after the start`,
    });
    rows.push({
      figure: `${DRIPPING} dripping connections, after traffic: RSS growth (MB)`,
      ours: warm.growth,
      note: `the same after ${2 * WARM_REQUESTS} ordinary requests brought the heap to its working size (${warm.before.toFixed(1)} MB)`,
    });
    const longest = Math.max(fresh.longestS, warm.longestS);
    const stillOpen = fresh.stillOpen + warm.stillOpen;
    rows.push({
      figure: `${DRIPPING} dripping connections: longest open (s)`,
      ours: stillOpen > 0 ? WATCH_MS / 1000 : longest,
      note:
        `${stillOpen > 0 ? `${stillOpen} still open after ${WATCH_MS / 1000} s; ` : ''}held at most ${Math.max(fresh.heldMax, warm.heldMax)} (cap ${CONSOLE_LIMITS.maxConnections}, the rest closed at accept); ` +
        `a body must bring ${CONSOLE_LIMITS.bodyMinBytes} B per ${CONSOLE_LIMITS.bodyWindowMs / 1000} s; node's default: 300 s`,
    });
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
