// The unit's health over the last hour (docs/monitor.md "Health"): every HEALTH_INTERVAL_MS a sample
// of each running PLC link's busy share, requests, errors and timeouts per second (from the
// link counters' growth since the last sample; a counter reset starts them anew), the free space
// of each storage volume (spec §4: the logger stops on low memory), the data logger's records per
// second, and the daemon's CPU share of one core and memory. HEALTH_SAMPLES are kept, the oldest
// go first: a fixed bound whatever runs.
import type { Volume } from '../../hw/types.ts';
import { captureSourceOf, type InterfaceStatus } from '../com/links.ts';

export const HEALTH_INTERVAL_MS = 10_000;
export const HEALTH_SAMPLES = 360; // one hour

export interface LinkSample {
  /** share of the interval the wire was busy, 0-1 */
  busy: number;
  requests: number;
  errors: number;
  timeouts: number;
}

export interface HealthSample {
  /** ms since the epoch */
  t: number;
  /** by connector (COM1 … INTERNAL), whatever name the interface was given */
  links: Record<string, LinkSample>;
  /** free and total bytes of each mounted volume (internal, usb, temp) */
  volumes: Record<string, { free: number; total: number }>;
  /** data logger records written per second */
  logRecords: number;
  /** the daemon's CPU time in the interval, as a share of one core (may pass 1 on several cores) */
  cpu: number;
  /** resident memory and JS heap in use, bytes */
  rss: number;
  heap: number;
}

export interface HealthDeps {
  links(): InterfaceStatus[];
  volumes(): Promise<Volume[]>;
  /** records written so far by every log file (the logger's status) */
  logRecords(): number;
  now(): number;
}

interface Counts {
  requests: number;
  errors: number;
  timeouts: number;
  busyMs: number;
  since: number | undefined;
}

interface Last {
  t: number;
  links: Map<string, Counts>;
  logRecords: number;
  cpu: NodeJS.CpuUsage;
}

const perSecond = (delta: number, ms: number) => (ms > 0 ? (delta * 1000) / ms : 0);

export class HealthHistory {
  private readonly kept: HealthSample[] = [];
  private last: Last | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly deps: HealthDeps,
    readonly intervalMs = HEALTH_INTERVAL_MS,
  ) {}

  start(): void {
    this.last = this.reading();
    this.timer = setInterval(() => {
      this.sample().catch(() => undefined); // a volume that cannot be asked leaves one sample out
    }, this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  samples(): HealthSample[] {
    return [...this.kept];
  }

  private reading(): Last {
    const links = new Map<string, Counts>();
    for (const l of this.deps.links()) {
      if (l.state === 'disabled') continue;
      const s = l.stats;
      links.set(captureSourceOf(l.id), { requests: s.requests, errors: s.errors, timeouts: s.timeouts, busyMs: s.busyMs, since: s.since });
    }
    return { t: this.deps.now(), links, logRecords: this.deps.logRecords(), cpu: process.cpuUsage() };
  }

  /** Takes one sample now (the timer's work; tests call it). */
  async sample(): Promise<HealthSample> {
    const prev = this.last ?? this.reading();
    const now = this.reading();
    const ms = now.t - prev.t;
    const links: Record<string, LinkSample> = {};
    for (const [name, c] of now.links) {
      // a link that is new, or whose counters were reset since: its counts since then
      const p = prev.links.get(name);
      const base = p && p.since === c.since ? p : { requests: 0, errors: 0, timeouts: 0, busyMs: 0, since: c.since };
      const span = p && p.since === c.since ? ms : Math.max(1, now.t - (c.since ?? prev.t));
      links[name] = {
        busy: Math.min(1, Math.max(0, (c.busyMs - base.busyMs) / span)),
        requests: perSecond(c.requests - base.requests, span),
        errors: perSecond(c.errors - base.errors, span),
        timeouts: perSecond(c.timeouts - base.timeouts, span),
      };
    }
    const volumes: HealthSample['volumes'] = {};
    for (const v of await this.deps.volumes()) if (v.mounted) volumes[v.id] = { free: v.freeBytes, total: v.totalBytes };
    const cpu = process.cpuUsage(prev.cpu);
    const mem = process.memoryUsage();
    const s: HealthSample = {
      t: now.t,
      links,
      volumes,
      logRecords: perSecond(Math.max(0, now.logRecords - prev.logRecords), ms),
      cpu: ms > 0 ? (cpu.user + cpu.system) / 1000 / ms : 0,
      rss: mem.rss,
      heap: mem.heapUsed,
    };
    this.last = now;
    this.kept.push(s);
    if (this.kept.length > HEALTH_SAMPLES) this.kept.shift();
    return s;
  }
}
