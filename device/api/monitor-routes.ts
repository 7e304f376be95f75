// The traffic monitor and the health history (docs/monitor.md): start and stop the unit's one capture, read it with a
// cursor (a polled stream: each read names the last record it saw), download it as text or pcap.
// Administrators and users may watch; what is read is decoded here, from the ring, per read. The
// health history answers the last hour's samples.
import * as v from 'valibot';
import { captureProtocolOf, captureSourceOf, linkConfigOf } from '../com/links.ts';
import { type CaptureRecord, RING_BYTES, RING_RECORDS } from '../diag/capture.ts';
import { capturePcap, captureText, decodedOf, frameTexts } from '../diag/export.ts';
import type { HealthAnswer } from '../model/health.ts';
import {
  type MonitorAnswer,
  type MonitorQuery,
  type MonitorRecord,
  type MonitorSource,
  monitorDownloadQuery,
  monitorQuery,
  monitorStartRequest,
  READ_MAX,
} from '../model/monitor.ts';
import { toIssues } from '../model/section.ts';
import type { Pew } from '../model/sections/pew.ts';
import { type Redirect, speaksModbus } from '../model/sections/redirect.ts';
import { readBody } from './body.ts';
import type { DaemonContext } from './context.ts';
import { invalid } from './errors.ts';
import { type RouteDef, route } from './route.ts';

/** records a read looks at to find the ones its filter asks for */
const SCAN_MAX = 5000;
/** errors: error answers, unreadable frames, and the events that mean something went wrong */
const ERROR_EVENTS = new Set(['no_answer', 'link_down', 'client_refused', 'request_refused']);

function sourcesOf(ctx: DaemonContext): MonitorSource[] {
  const out: MonitorSource[] = [];
  const pew = ctx.store.get<Pew>('pew');
  for (const l of ctx.com.links.status()) {
    if (l.state === 'disabled') continue;
    const it = pew.interfaces.find((i) => i.id === l.id);
    const protocol = it ? captureProtocolOf(linkConfigOf(pew, it)) : 'mewtocol';
    out.push({ id: captureSourceOf(l.id), kind: 'link', protocol, active: l.state === 'up' });
  }
  for (const t of ctx.redirects.status()) {
    const cfg = ctx.store.get<Redirect>('pew_redirect').threads[t.index];
    const modbus = cfg ? speaksModbus(cfg, (id) => pew.interfaces.find((i) => i.id === id)?.protocol) : false;
    out.push({ id: `port:${t.port}`, kind: 'thread', protocol: modbus ? 'modbus_tcp' : 'mewtocol', active: t.listening });
  }
  const iec = ctx.iec104.status();
  if (iec.enabled) out.push({ id: 'iec104', kind: 'iec104', protocol: 'iec104', active: iec.listener?.listening ?? false });
  return out;
}

function view(r: CaptureRecord, raw: boolean): MonitorRecord {
  const out: MonitorRecord = { seq: r.seq, t: r.t, source: r.source, kind: r.kind };
  if (r.peer) out.peer = r.peer;
  if (r.kind === 'event') {
    if (r.event) out.event = r.event;
    if (r.args) out.args = r.args;
    return out;
  }
  if (r.dir) out.dir = r.dir;
  if (r.protocol) out.protocol = r.protocol;
  if (r.rttMs !== undefined) out.rttMs = r.rttMs;
  out.bytes = r.data?.length ?? 0;
  const d = decodedOf(r);
  if (d) out.decoded = d;
  if (raw) Object.assign(out, frameTexts(r));
  return out;
}

function wanted(q: MonitorQuery, r: MonitorRecord): boolean {
  if (q.source && r.source !== q.source) return false;
  if (q.dir && r.dir !== q.dir) return false;
  if (q.command && r.decoded?.command?.toUpperCase() !== q.command.toUpperCase()) return false;
  if (q.errors === '1') {
    const bad = r.kind === 'event' ? ERROR_EVENTS.has(r.event ?? '') : r.decoded?.what === 'error' || r.decoded?.what === 'unreadable';
    if (!bad) return false;
  }
  return true;
}

function parseQuery<S extends v.GenericSchema>(schema: S, query: Record<string, string>): v.InferOutput<S> {
  const q = v.safeParse(schema, query);
  if (!q.success) throw invalid(toIssues(q.issues));
  return q.output;
}

/** The records of the ring after `after` (of one source), every one: for the downloads. */
function allAfter(ctx: DaemonContext, after: number, source: string | undefined): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  let cursor = after;
  for (;;) {
    const { records, next } = ctx.capture.read(cursor, SCAN_MAX);
    for (const r of records) if (!source || r.source === source) out.push(r);
    if (records.length < SCAN_MAX) return out;
    cursor = next;
  }
}

export const monitorRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/health',
    key: 'health',
    access: 'user',
    handler: (c, ctx) => {
      const answer: HealthAnswer = { intervalMs: ctx.health.intervalMs, samples: ctx.health.samples() };
      return c.json(answer);
    },
  }),
  route({
    method: 'GET',
    path: '/config/monitor',
    key: 'monitor',
    access: 'user',
    handler: (c, ctx) => {
      const q = parseQuery(monitorQuery, c.req.query()) as MonitorQuery & { after: number; max: number };
      const state = ctx.capture.state();
      const raw = state.level === 'raw';
      const { records, lost, next } = ctx.capture.read(q.after, SCAN_MAX);
      const shown: MonitorRecord[] = [];
      let cursor = q.after;
      for (const r of records) {
        if (shown.length >= Math.min(q.max, READ_MAX)) break;
        cursor = r.seq;
        const rec = view(r, raw);
        if (wanted(q, rec)) shown.push(rec);
      }
      if (shown.length < Math.min(q.max, READ_MAX)) cursor = Math.max(cursor, next);
      const held = ctx.capture.held();
      const answer: MonitorAnswer = {
        capture: state,
        held: { ...held, maxRecords: RING_RECORDS, maxBytes: RING_BYTES },
        sources: sourcesOf(ctx),
        records: shown,
        next: cursor,
        lost,
      };
      return c.json(answer);
    },
  }),
  route({
    method: 'POST',
    path: '/config/monitor/start',
    key: 'monitor_start',
    access: 'user',
    handler: async (c, ctx) => {
      const req = await readBody(c, monitorStartRequest);
      const known = new Set(sourcesOf(ctx).map((s) => s.id));
      const unknown = req.sources.filter((s) => !known.has(s));
      if (unknown.length) throw invalid([{ path: 'sources', code: 'invalid_value', params: { allowed: [...known].join(', ') || '-' } }]);
      const user = c.get('session')!.user;
      const state = ctx.capture.start({ sources: [...new Set(req.sources)], level: req.level, minutes: req.minutes, by: user });
      ctx.log.info('traffic capture started', { user, sources: state.sources.join(' '), level: state.level, minutes: req.minutes });
      return c.json(state);
    },
  }),
  route({
    method: 'POST',
    path: '/config/monitor/stop',
    key: 'monitor_stop',
    access: 'user',
    handler: async (c, ctx) => {
      await readBody(c, v.strictObject({}));
      const state = ctx.capture.stop();
      ctx.log.info('traffic capture stopped', { user: c.get('session')!.user });
      return c.json(state);
    },
  }),
  route({
    method: 'GET',
    path: '/config/monitor/download',
    key: 'monitor_download',
    access: 'user',
    handler: (c, ctx) => {
      const q = parseQuery(monitorDownloadQuery, c.req.query()) as { format: 'text' | 'pcap'; after: number; source?: string };
      const records = allAfter(ctx, q.after, q.source);
      if (q.format === 'text') {
        return c.body(captureText(records), 200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Disposition': 'attachment; filename="capture.txt"' });
      }
      const iecPort = ctx.iec104.status().listener?.port ?? 2404;
      return c.body(capturePcap(records, iecPort), 200, {
        'Content-Type': 'application/vnd.tcpdump.pcap',
        'Content-Disposition': 'attachment; filename="capture.pcap"',
      });
    },
  }),
];
