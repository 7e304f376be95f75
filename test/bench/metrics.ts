// The /metrics figure of `npm run bench` (docs/monitoring.md): the bundled simulator in a process of
// its own, a virtual PLC on every connector and all five links up, scraped the way Prometheus does
// (one kept-alive connection, the bearer token) in turns with the console's own GET
// /config/com_status on a connection of its own: the time from request to the last byte, median
// and p99 of each after unmeasured rounds while V8 compiles the paths. GET /config/service_status,
// which a scrape makes as well, is timed in the same turns for the note.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pew } from '../../device/model/sections/pew.ts';
import { ADMIN, Client } from '../support/daemon.ts';
import { parseExposition } from '../support/exposition.ts';
import { freePorts, HOST, startServer } from './processes.ts';
import { median, type Row } from './stats.ts';

const WARM = 50;
const SCRAPES = 300;

/** One GET over `agent`: ms to the last byte, and the body's size. */
function timedGet(agent: Agent, port: number, path: string, headers: Record<string, string>): Promise<{ ms: number; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: HOST, port, path, headers, agent, timeout: 5000 }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${body.toString().slice(0, 200)}`));
        else resolve({ ms: performance.now() - t0, bytes: body.length, text: body.toString() });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

export async function measureMetrics(rows: Row[], daemon: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-metrics-'));
  const [httpPort, mewPort, mbPort] = (await freePorts(3)) as [number, number, number];
  // the simulator's PLCs in its own process, at the unit's COM defaults; COM4 on loopback
  await writeFile(join(dir, 'plcs.json'), JSON.stringify({ COM4: { host: HOST, mewtocolPort: mewPort, modbusPort: mbPort } }));
  const server = await startServer(
    [...daemon, '--port', String(httpPort), '--data', join(dir, 'data'), '--plcs', join(dir, 'plcs.json')],
    httpPort,
    '/rest/api/v1/authentication',
  );
  const scraper = new Agent({ keepAlive: true, maxSockets: 1 });
  const consoleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const admin = new Client(`http://${HOST}:${httpPort}`);
    await admin.post('/rest/api/v1/authentication/setup', ADMIN);
    await admin.login(ADMIN);
    const pew = (await admin.get('/config/pew')).body as Pew;
    for (const it of pew.interfaces) it.enabled = true;
    pew.interfaces.find((i) => i.name === 'COM2')!.protocol = 'MODBUS';
    pew.interfaces.find((i) => i.name === 'COM4')!.ip_port = `${HOST}:${mewPort}`;
    const saved = await admin.post('/config/pew', pew);
    if (saved.status !== 200) throw new Error(`saving the links failed: ${saved.text}`);
    const up = async () => ((await admin.get('/config/com_status')).body.links as { state: string }[]).every((l) => l.state === 'up');
    for (const end = performance.now() + 20_000; !(await up()); ) {
      if (performance.now() > end) throw new Error(`not every link came up: ${(await admin.get('/config/com_status')).text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const token = (await admin.post('/config/metrics_token', {})).body.token as string;
    const bearer = { authorization: `Bearer ${token}` };
    const session = { cookie: admin.cookie };

    const scrapes: number[] = [];
    const status: number[] = [];
    const services: number[] = [];
    let last = { bytes: 0, text: '' };
    for (let i = 0; i < WARM + SCRAPES; i++) {
      // by turns, the side that goes first changing each round
      const order = i % 2 ? (['m', 's'] as const) : (['s', 'm'] as const);
      for (const side of order) {
        if (side === 'm') {
          const r = await timedGet(scraper, httpPort, '/metrics', bearer);
          if (i >= WARM) scrapes.push(r.ms);
          last = r;
        } else {
          const r = await timedGet(consoleAgent, httpPort, '/config/com_status', session);
          if (i >= WARM) status.push(r.ms);
          const s = await timedGet(consoleAgent, httpPort, '/config/service_status', session);
          if (i >= WARM) services.push(s.ms);
        }
      }
    }
    const families = parseExposition(last.text);
    const series = families.reduce((n, f) => n + f.samples.length, 0);
    rows.push({
      figure: 'GET /metrics scrape vs GET /config/com_status (ms)',
      ours: median(scrapes),
      baseline: median(status),
      note: `median of ${SCRAPES} each by turns after ${WARM} unmeasured, kept-alive connections; 5 links up; ${families.length} families, ${series} series, ${last.bytes} B; p99 ${pct(scrapes, 0.99).toFixed(2)} vs ${pct(status, 0.99).toFixed(2)} ms; GET /config/service_status alone ${median(services).toFixed(2)} ms`,
    });
  } finally {
    scraper.destroy();
    consoleAgent.destroy();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
