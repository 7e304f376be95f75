// A real Prometheus scrapes the unit (docs/monitoring.md "Scraping the unit"): Debian's prometheus
// (test/run.sh installs it) against a simulator whose console is on HTTPS as on the unit, set up
// with the page's commands and job as written there: its openssl lines take the certificate and
// print the fingerprint /info shows, its job goes into prometheus.yml, its curl line scrapes by
// hand. Only the unit's address, the folder of the files and the scrape interval (1 s) are put in.
// Prometheus' query API then shows the unit's link series, and `up` is 1; promtool has nothing
// to say about the exposition, neither the unit's nor one with every series there is.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMetrics } from '../../device/metrics/series.ts';
import { scrapeConfig } from '../../device/model/metrics-token.ts';
import { input as everyField } from '../fixtures/metrics-input.ts';
import { ADMIN, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type EntryProcess, startEntry } from '../support/entry-process.ts';
import { parseExposition, sampleValue } from '../support/exposition.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';

const run = promisify(execFile);

// ---- the page's steps, as a reader sees them ----
const DOC = readFileSync(new URL('../../docs/monitoring.md', import.meta.url), 'utf8');
const STEPS = DOC.slice(DOC.indexOf('## Scraping the unit'), DOC.indexOf('\n## Series'));
const blocks = (lang: string) => [...STEPS.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!.replace(/^ {3}/gm, ''));
/** the page's example unit and the folder of its files */
const DOC_TARGET = '192.168.1.5:8081';
const DOC_FOLDER = '/etc/prometheus/';

let d: TestDaemon;
let dir: string;
let ca = '';
let prometheus: EntryProcess | undefined;

/** what the reader would type, for this test's unit and folder */
function localised(text: string): string {
  expect(text).toContain(DOC_FOLDER);
  return text.replaceAll(DOC_TARGET, `${LOOPBACK}:${d.tlsPort}`).replaceAll(DOC_FOLDER, `${dir}/`);
}

/** one request to the console over HTTPS, trusting only the certificate the page's commands took */
function onConsole(method: string, path: string, body?: object, headers: Record<string, string> = {}): Promise<{ status: number; body: any; cookie?: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: LOOPBACK, port: d.tlsPort, method, path, ca, agent: false, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          const cookie = res.headers['set-cookie']?.[0]?.split(';')[0];
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text, ...(cookie ? { cookie } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** `promtool check metrics` of an exposition: its exit code and what it said */
function promtool(text: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = execFile('promtool', ['check', 'metrics'], (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out: out + err }));
    p.stdin!.end(text);
  });
}

async function query(port: number, promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const r = await fetch(`http://${LOOPBACK}:${port}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await r.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

beforeAll(async () => {
  d = await startTestDaemon({ tls: true });
  dir = await mkdtemp(join(tmpdir(), 'prometheus-'));
});
afterAll(async () => {
  if (prometheus && prometheus.proc.exitCode === null) {
    prometheus.proc.kill('SIGTERM');
    await prometheus.exited;
  }
  prometheus?.killGroup();
  await d?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a real Prometheus scrapes the unit as docs/monitoring.md says', () => {
  it("takes the unit's certificate with the page's openssl lines; its fingerprint is the one /info shows", async () => {
    const [certLines] = blocks('sh');
    const lines = localised(certLines!).trim().split('\n');
    expect(lines).toHaveLength(2);
    await run('sh', ['-c', lines[0]!], { cwd: dir });
    ca = await readFile(join(dir, 'communicator.crt'), 'utf8');
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const printed = (await run('sh', ['-c', lines[1]!], { cwd: dir })).stdout;

    // the administrator signs in over HTTPS trusting that certificate, and reads /info's figure
    expect((await onConsole('POST', '/rest/api/v1/authentication/setup', ADMIN)).status).toBe(201);
    const login = await onConsole('POST', '/rest/api/v1/authentication', ADMIN);
    expect(login.status).toBe(200);
    const info = await onConsole('GET', '/rest/api/v1?cache=true&js=true', undefined, { cookie: login.cookie! });
    const fingerprint: string = info.body.consoleTls.certificate.fingerprint256;
    expect(printed.trim().toUpperCase()).toBe(`SHA256 FINGERPRINT=${fingerprint.toUpperCase()}`);

    // generates the scrape token, which goes into the file the job names (as `echo` writes it, with a line feed)
    const made = await onConsole('POST', '/config/metrics_token', {}, { cookie: login.cookie!, 'x-csrf-token': login.body.csrfToken });
    expect(made.status).toBe(200);
    await writeFile(join(dir, 'communicator-token'), `${made.body.token}\n`, { mode: 0o600 });
  });

  it("scrapes by hand with the page's curl line; promtool finds nothing to say about the exposition", async () => {
    const [, curl] = blocks('sh');
    const { stdout } = await run('sh', ['-c', localised(curl!).trim()], { cwd: dir, maxBuffer: 8 * 1024 * 1024 });
    const families = parseExposition(stdout);
    expect(sampleValue(families, 'communicator_link_up', { link: 'COM1' })).toBe(0);
    // promtool's lint: of this scrape, and of a unit with every service and status field there is
    for (const text of [stdout, renderMetrics(everyField)]) {
      const checked = await promtool(text);
      expect(checked.out.trim()).toBe('');
      expect(checked.code).toBe(0);
    }
  });

  it("runs the page's job: the query API shows the unit's link series and up is 1", async () => {
    const [job] = blocks('yaml');
    // the job the card on /users shows for such a unit
    expect(job).toBe(scrapeConfig(DOC_TARGET, true));
    const config = localised(job!);
    expect(config).toContain('scrape_interval: 15s');
    await writeFile(join(dir, 'prometheus.yml'), config.replace('scrape_interval: 15s', 'scrape_interval: 1s'));
    const port = await freePort();
    prometheus = startEntry('prometheus', [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=${LOOPBACK}:${port}`,
    ]);
    await prometheus.waitFor(/Server is ready to receive web requests/);
    const instance = `${LOOPBACK}:${d.tlsPort}`;
    await expect
      .poll(async () => (await query(port, 'up{job="communicator"}')).map((r) => [r.metric.instance, r.value[1]]), { timeout: 60_000, interval: 250 })
      .toEqual([[instance, '1']]);
    await expect
      .poll(async () => (await query(port, 'communicator_link_requests_total')).map((r) => r.metric.link).sort(), { timeout: 60_000, interval: 250 })
      .toEqual(['COM1', 'COM2', 'COM3', 'COM4', 'INTERNAL']);
    const series = await query(port, 'communicator_link_up{link="COM1"}');
    expect(series).toEqual([
      { metric: { __name__: 'communicator_link_up', instance, job: 'communicator', link: 'COM1', protocol: 'MEWTOCOL' }, value: [expect.any(Number), '0'] },
    ]);
    prometheus.proc.kill('SIGTERM');
    expect((await prometheus.exited).code).toBe(0);
  });
});
