import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { Links } from '../com/links.ts';
import { encodeValue } from '../logger/values.ts';
import { logFileSchema } from '../model/sections/logfile.ts';
import { type Pew, pewSchema } from '../model/sections/pew.ts';
import { metricTable } from './metrics.ts';
import { Poller, SPARKPLUG_USER } from './poller.ts';

const file = v.parse(logFileSchema, {
  id: 1,
  name: 'Tank',
  interface: 0,
  records: [
    { id: 1, name: 'Level', if: 0, type: 0, reg_addr: '100' },
    { id: 2, name: 'Total', if: 0, type: 9, reg_addr: '102' },
    { id: 3, name: 'Temp', if: 0, type: 7, reg_addr: '106', enable_scal: true, scal_plc_max: 10, scal_log_max: 100 },
    { id: 4, name: 'Pump', if: 0, area: 6, reg_addr: '2F' },
    { id: 5, name: 'Far', if: 0, type: 0, reg_addr: '5000' },
  ],
});
const pew = v.getDefaults(pewSchema) as Pew;
const table = metricTable({ log_def: [file] }, { interface_plc: 0 });

/** A link over a word memory per area that counts its requests and can fail them. */
function fakeLinks(fail: (area: string, start: number) => boolean = () => false) {
  const memory: Record<string, number[]> = { DT: new Array(6000).fill(0), WR: new Array(100).fill(0) };
  const requests: [string, number, number, string, number][] = [];
  const link = {
    readWords: async (area: string, start: number, count: number, user: string, station: number) => {
      requests.push([area, start, count, user, station]);
      if (fail(area, start)) throw new Error('no answer');
      return memory[area]!.slice(start, start + count);
    },
  };
  return { memory, requests, links: { get: (id: number) => (id === 0 ? link : undefined) } as unknown as Pick<Links, 'get'> };
}

describe('a read pass over the metrics', () => {
  it('reads grouped into blocks as the logger plans them, as user sparkplug; values decoded and scaled, bits as booleans, each with its read time', async () => {
    const f = fakeLinks();
    f.memory.DT!.splice(100, 1, ...encodeValue(0, -7, 'little'));
    f.memory.DT!.splice(102, 4, ...encodeValue(9, -(2n ** 40n), 'little'));
    f.memory.DT!.splice(106, 2, ...encodeValue(7, 2.5, 'little'));
    f.memory.WR![2] = 1 << 15;
    let t = 1000;
    const poller = new Poller(table.metrics, pew, f.links, () => t++);
    const pass = await poller.read();
    // DT100..107 in one request, DT5000 alone, WR2 alone
    expect(f.requests.map(([area, start, count]) => [area, start, count]).sort()).toEqual([
      ['DT', 100, 8],
      ['DT', 5000, 1],
      ['WR', 2, 1],
    ]);
    expect(poller.reads).toBe(3);
    expect(f.requests.every(([, , , user]) => user === SPARKPLUG_USER)).toBe(true);
    expect(pass.down).toBe(false);
    expect(pass.values.map((x) => [x.metric.name, x.value])).toEqual([
      ['Tank/Level', -7],
      ['Tank/Total', -(2n ** 40n)],
      ['Tank/Temp', 25],
      ['Tank/Pump', true],
      ['Tank/Far', 0],
    ]);
    expect(new Set(pass.values.map((x) => x.timestamp)).size).toBe(3); // one time per block
  });

  it('a block that fails leaves its metrics null; when none answers the device is down', async () => {
    const some = await new Poller(table.metrics, pew, fakeLinks((area, start) => area === 'DT' && start === 5000).links, () => 0).read();
    expect(some.down).toBe(false);
    expect(some.values.map((x) => x.value === null)).toEqual([false, false, false, false, true]);
    expect(some.error).toBe('no answer');
    const none = await new Poller(table.metrics, pew, fakeLinks(() => true).links, () => 0).read();
    expect(none.down).toBe(true);
    expect(none.values.every((x) => x.value === null)).toBe(true);
  });
});
