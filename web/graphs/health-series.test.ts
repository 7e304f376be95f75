import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthAnswer } from '../../device/model/health.ts';
import {
  daemonSeries,
  faultSeries,
  figures,
  HOUR_MS,
  inUnit,
  lastHour,
  linkSeries,
  sizeUnit,
  storageUnit,
  volumeFigures,
  volumeSeries,
  wallClock,
  yRange,
} from './health-series.ts';
import { seriesColour } from './palette.ts';

type Sample = HealthAnswer['samples'][number];
const MB = 1024 * 1024;
const GB = 1024 * MB;
const t0 = Date.UTC(2026, 11, 3, 14, 0, 0);

const sample = (i: number, links: Sample['links'], volumes: Sample['volumes'] = {}): Sample => ({
  t: t0 + i * 10_000,
  links,
  volumes,
  logRecords: i,
  cpu: 0.05 * i,
  rss: 50 * MB,
  heap: 20 * MB + i * MB,
});
const link = (busy: number, requests: number, errors = 0, timeouts = 0) => ({ busy, requests, errors, timeouts });

// COM1 runs throughout; COM2 starts in the second sample and stops in the last
const samples = [
  sample(0, { COM1: link(0.1, 5) }, { internal: { free: 3 * GB, total: 4 * GB } }),
  sample(1, { COM1: link(0.2, 6, 1), COM2: link(0.5, 2, 0, 0.5) }, { internal: { free: 2 * GB, total: 4 * GB }, usb: { free: GB / 2, total: 8 * GB } }),
  sample(2, { COM1: link(0.3, 7) }, { internal: { free: 0.3 * GB, total: 4 * GB } }),
];
const ys = (s: { data: { y: number | undefined }[] }) => s.data.map((p) => p.y);

describe('what the health plots draw', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a series per link that ran in the hour, in the order they came, a gap where a link did not run; busy in %', () => {
    const busy = linkSeries(samples, 'busy');
    expect(busy.map((s) => [s.key, s.colour])).toEqual([
      ['COM1', seriesColour(0)],
      ['COM2', seriesColour(1)],
    ]);
    expect(ys(busy[0]!)).toEqual([10, 20, 30]);
    expect(ys(busy[1]!)).toEqual([undefined, 50, undefined]);
    expect(ys(linkSeries(samples, 'requests')[0]!)).toEqual([5, 6, 7]);
    expect(busy[0]!.data.map((p) => p.x)).toEqual(samples.map((s) => wallClock(s.t)));
  });

  it('errors and timeouts per link: the timeouts dashed in the colour of the link', () => {
    const [com1, com2] = faultSeries(samples);
    expect(com1!.link).toBe('COM1');
    expect(ys(com1!.errors)).toEqual([0, 1, 0]);
    expect(com2!.timeouts).toMatchObject({ key: 'COM2', colour: seriesColour(1), dashed: true });
    expect(com2!.errors.dashed).toBeUndefined();
    expect(ys(com2!.timeouts)).toEqual([undefined, 0.5, undefined]);
  });

  it('storage in GB once a volume holds a GB, internal first; each volume with its share free and the low-space mark below 10 %', () => {
    expect(storageUnit(samples)).toBe('gb');
    expect(storageUnit([sample(0, {}, { temp: { free: 10 * MB, total: 512 * MB } })])).toBe('mb');
    expect([sizeUnit(GB - 1), sizeUnit(GB)]).toEqual(['mb', 'gb']);
    expect(inUnit(1.5 * GB, 'gb')).toBe(1.5);
    expect(inUnit(1.5 * GB, 'mb')).toBe(1536);
    const vols = volumeSeries(samples, 'gb');
    expect(vols.map((s) => s.key)).toEqual(['internal', 'usb']);
    expect(ys(vols[0]!)).toEqual([3, 2, 0.3]);
    expect(ys(vols[1]!)).toEqual([undefined, 0.5, undefined]);
    expect(volumeFigures(samples[1])).toEqual([
      { id: 'internal', free: 2 * GB, total: 4 * GB, share: 0.5, low: false },
      { id: 'usb', free: GB / 2, total: 8 * GB, share: 1 / 16, low: true },
    ]);
    expect(volumeFigures(samples[2])).toEqual([{ id: 'internal', free: 0.3 * GB, total: 4 * GB, share: 0.075, low: true }]);
    expect(volumeFigures(sample(0, {}, { temp: { free: 0, total: 0 } }))).toEqual([{ id: 'temp', free: 0, total: 0, share: 0, low: true }]);
    expect(volumeFigures(undefined)).toEqual([]);
  });

  it('the daemon: CPU in % of one core, resident memory and heap in MB; the logger in records per second', () => {
    const d = daemonSeries(samples);
    expect(ys(d.cpu[0]!)).toEqual([0, 5, 10]);
    expect(d.memory.map((s) => s.key)).toEqual(['rss', 'heap']);
    expect(ys(d.memory[1]!)).toEqual([20, 21, 22]);
    expect(ys(d.records[0]!)).toEqual([0, 1, 2]);
  });

  it('the figures of a text alternative: the last value, the lowest and the highest; none for a link stopped at the end', () => {
    const [com1, com2] = linkSeries(samples, 'requests');
    expect(figures(com1!)).toEqual({ now: 7, min: 5, max: 7 });
    expect(figures(com2!)).toEqual({ now: undefined, min: 2, max: 2 });
    expect(figures({ key: 'x', colour: '', data: [] })).toEqual({ now: undefined, min: undefined, max: undefined });
  });

  it('the y axis from 0 to the highest value, at least the given top (100 % for the busy share), above 0 when all are 0', () => {
    expect(yRange(linkSeries(samples, 'requests'))).toEqual({ low: 0, high: 7 });
    expect(yRange(linkSeries(samples, 'busy'), 100)).toEqual({ low: 0, high: 100 });
    expect(yRange(linkSeries([sample(0, { COM1: link(0, 0) })], 'requests'))).toEqual({ low: 0, high: 1 });
    expect(yRange([])).toEqual({ low: 0, high: 1 });
  });

  it('the last hour up to the newest sample, in the time of day of the browser', () => {
    const view = lastHour(samples);
    expect(view.hi - view.lo).toBe(HOUR_MS);
    expect(view.hi).toBe(wallClock(samples[2]!.t));
    // the browser's wall clock read as UTC: 14:00 UTC is 15:00 in Berlin in December, 09:00 in New York
    vi.stubEnv('TZ', 'Europe/Berlin');
    expect(new Date(wallClock(t0)).getUTCHours()).toBe(15);
    vi.stubEnv('TZ', 'America/New_York');
    expect(new Date(wallClock(t0)).getUTCHours()).toBe(9);
  });
});
