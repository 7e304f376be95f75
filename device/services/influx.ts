// A small InfluxDB 1.x client over its v1 HTTP API (`/ping`, `/query`, `/write`), for the NoSQL
// test and the database listing of the /db page (spec §3 "NoSQL (pew_nosql)", §7 get_nosqltest,
// pew_getinflux). node:http(s) directly, so the section's CA and verification apply per request.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Nosql } from '../model/sections/nosql.ts';
import { testNote } from '../model/servicetest.ts';
import { failureNote, StepFailure } from './test-run.ts';

export const INFLUX_DEFAULT_PORT = 8086;

export interface InfluxTarget {
  /** base URL without a path, e.g. http://127.0.0.1:8086 */
  base: string;
  user: string;
  password: string;
  /** for https: the CA to trust (undefined: the system's) and whether to verify at all */
  ca?: Buffer;
  verify: boolean;
  ms: number;
}

/** The server field of pew_nosql (`host`, `host:port` or `http(s)://host[:port]`) as a base URL. */
export function influxBase(server: string, encrypted: boolean): string {
  const m = /^(?:(https?):\/\/)?([^:/\s]+)(?::(\d{1,5}))?\/?$/.exec(server);
  if (!m) throw new RangeError(`not an InfluxDB server: ${server}`);
  const scheme = m[1] ?? (encrypted ? 'https' : 'http');
  return `${scheme}://${m[2]}:${m[3] ?? INFLUX_DEFAULT_PORT}`;
}

export function influxTarget(n: Nosql, ca: Buffer | undefined): InfluxTarget {
  return {
    base: influxBase(n.server, n.use_encryption),
    user: n.user,
    password: n.pass,
    ca: n.ca_verification ? ca : undefined,
    verify: n.ca_verification,
    ms: n.timeout * 1000,
  };
}

export interface InfluxReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request to the server; a network failure rejects with node's error. */
export function influxRequest(t: InfluxTarget, method: 'GET' | 'POST', path: string, query: Record<string, string>, body?: string): Promise<InfluxReply> {
  const url = new URL(path, t.base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (t.user !== '') headers.authorization = `Basic ${Buffer.from(`${t.user}:${t.password}`).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'text/plain; charset=utf-8';
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, timeout: t.ms, ...(url.protocol === 'https:' ? { ca: t.ca, rejectUnauthorized: t.verify } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer from ${t.base} within ${t.ms} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** The error of a reply that is not a success: the server's own `error` text, its status deciding the reason. */
export function influxFailure(r: InfluxReply): StepFailure {
  let text = r.body.trim();
  try {
    const j = JSON.parse(r.body) as { error?: unknown };
    if (typeof j.error === 'string') text = j.error;
  } catch {
    // not JSON: keep the text as it came
  }
  const said = `HTTP ${r.status}${text ? `: ${text}` : ''}`;
  if (r.status === 401 || r.status === 403) return new StepFailure('auth_failed', said);
  if (r.status === 404 || /database not found/i.test(text)) return new StepFailure('not_found', said);
  return new StepFailure('peer_error', said);
}

interface QueryResult {
  results?: { statement_id?: number; error?: string; series?: { name?: string; columns?: string[]; values?: unknown[][] }[] }[];
  error?: string;
}

/** InfluxQL `q` (on `db` when given); the series of its one statement, or its error. */
export async function influxQuery(
  t: InfluxTarget,
  q: string,
  db?: string,
  method: 'GET' | 'POST' = 'GET',
): Promise<NonNullable<NonNullable<QueryResult['results']>[number]['series']>> {
  const r = await influxRequest(t, method, '/query', { q, epoch: 'ms', ...(db ? { db } : {}) });
  if (r.status !== 200) throw influxFailure(r);
  let j: QueryResult;
  try {
    j = JSON.parse(r.body) as QueryResult;
  } catch {
    throw failureNote('bad_reply', testNote('not_influx', undefined, r.body.slice(0, 200)), `not an InfluxDB answer: ${r.body.slice(0, 200)}`);
  }
  const first = j.results?.[0];
  const error = j.error ?? first?.error;
  if (error) throw new StepFailure(/database not found/i.test(error) ? 'not_found' : 'peer_error', error);
  return first?.series ?? [];
}

/** The first column of every row of every series (SHOW DATABASES, SHOW MEASUREMENTS). */
export const firstColumn = (series: Awaited<ReturnType<typeof influxQuery>>): string[] => series.flatMap((s) => (s.values ?? []).map((row) => String(row[0])));

/** An identifier in InfluxQL: always double-quoted, quotes and backslashes escaped. */
export const influxIdent = (name: string) => `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
/** A string literal in InfluxQL. */
export const influxString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A measurement, tag key or tag value in line protocol: commas, spaces and equals signs escaped. */
export const lineEscape = (s: string) => s.replace(/[,= ]/g, (c) => `\\${c}`);

/** The databases of the server and the measurements of `database` (empty when it is not given or missing). */
export async function influxList(t: InfluxTarget, database: string): Promise<{ databases: string[]; measurements: string[] }> {
  const databases = firstColumn(await influxQuery(t, 'SHOW DATABASES'));
  const measurements =
    database !== '' && databases.includes(database) ? firstColumn(await influxQuery(t, `SHOW MEASUREMENTS ON ${influxIdent(database)}`)) : [];
  return { databases, measurements };
}
