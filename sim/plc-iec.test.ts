// `npm run plc -- iec event …` (plc-iec.ts): a command line becomes one ring record in the layout of
// device/model/blocks/iec104.ts, written into slot W of the PLC's ring when it has room; a line that
// cannot be one is refused with what is wrong.
import { describe, expect, it } from 'vitest';
import { decodeRecord, slotOffset } from '../device/model/blocks/iec104.ts';
import { readPlcMemory, writePlcMemory } from './plc/inspect.ts';
import { PlcMemory } from './plc/memory.ts';
import { PLC_CLI_USAGE } from './plc-cli.ts';
import { iecEventLine, pushIecEvent, routesWordIo, type WordIo } from './plc-iec.ts';

const line = (text: string) => iecEventLine(text.split(' '));

describe('iec event: command line → record', () => {
  it("each type by name or number, with the unit's default buffers", () => {
    expect(line('event COM1 scaled 100 -42')).toEqual({
      connector: 'COM1',
      layout: { area: 'DT', read_index: 1000, ring: 1010, depth: 501 },
      record: [11, 100, 0, 0xffd6, 0xffff],
    });
    expect(line('event com2 1 0x10203 1 quality=0x80 group=3').record).toEqual([1 | (3 << 8), 0x0203, 0x01 | (0x80 << 8), 1, 0]);
    expect(line('event COM1 float 5 1.5').record).toEqual([13, 5, 0, 0, 0x3fc0]);
    expect(line('event COM1 step 5 -3 transient=1').record).toEqual([5, 5, 0, 0xfffd, 1]);
    expect(line('event COM1 totals 5 70000 quality=0x25').record).toEqual([15, 5, 0x2500, 70000 & 0xffff, 1]);
    expect(line('event COM1 double 5 2 area=fl rbm=0 ring=1 depth=11').layout).toEqual({ area: 'FL', read_index: 0, ring: 1, depth: 11 });
  });

  it('a line that cannot be an event says why', () => {
    const cases: [string, RegExp][] = [
      ['send COM1', /unknown command "send"/],
      ['event X1 scaled 1 1', /give a connector/],
      ['event COM1 analog 1 1', /type "analog" is not one of single, double/],
      ['event COM1 2 1 1', /type "2"/],
      ['event COM1 scaled 0 1', /IOA 0 is not a whole number 1-16777215/],
      ['event COM1 scaled 1', /give a value/],
      ['event COM1 scaled 1 40000', /40000 is no int16/],
      ['event COM1 single 1 x', /value "x" is not a number/],
      ['event COM1 single 1 1 quality=1', /quality 0x1/],
      ['event COM1 single 1 1 depth=5', /depth 5 is not a whole number 6-32765/],
      ['event COM1 single 1 1 colour=red', /"colour=red" is not one of/],
      ['event COM1 single 1 1 area=WR', /area WR is not one of DT, FL, LD/],
    ];
    for (const [text, message] of cases) expect(() => line(text), text).toThrow(message);
    expect(PLC_CLI_USAGE).toContain('\n  iec event <COMn> <type> <ioa> <value>');
  });
});

describe('iec event: into the ring', () => {
  it('takes slot W, advances W, and refuses a full ring', async () => {
    const m = new PlcMemory('FP-XH');
    const io: WordIo = { read: async (a, n) => readPlcMemory(m, a, n) as number[], write: async (a, values) => writePlcMemory(m, a, values) };
    const ev = line('event COM1 scaled 7 9 rbm=100 ring=110 depth=16'); // 3 slots
    m.writeWords('DT', 100, [1]);
    m.writeWords('DT', 110, [2]);
    expect(await pushIecEvent(ev, io)).toBe(2);
    expect(m.readWords('DT', 110, 1)).toEqual([0]);
    expect(decodeRecord(m.readWords('DT', 110 + slotOffset(2), 5), 0, 0)).toMatchObject({ ok: true, value: { type: 11, ioa: 7, element: { value: 9 } } });
    expect(await pushIecEvent(ev, io)).toBeUndefined(); // (0 + 1) mod 3 = R: full
    expect(m.readWords('DT', 110, 1)).toEqual([0]);
  });
});

describe('iec event: through the memory routes', () => {
  it('reads R and W and writes the record and W with the routes the CLI calls; a refused call throws its message', async () => {
    const m = new PlcMemory('FP-XH');
    m.writeWords('DT', 1010, [4]);
    const calls: string[] = [];
    // the memory routes of sim/plc-routes.ts, on one PLC's memory
    const fake = (async (url: string, init?: RequestInit) => {
      const u = new URL(url);
      calls.push(`${init?.method ?? 'GET'} ${u.pathname}${u.search}`);
      expect(u.pathname).toBe('/sim/plcs/COM1/memory');
      if (!init?.method) return Response.json({ values: readPlcMemory(m, u.searchParams.get('address')!, Number(u.searchParams.get('count'))) });
      const body = JSON.parse(String(init.body)) as { address: string; values: number[] };
      if (body.address.startsWith('FL')) return Response.json({ error: { message: 'outside FL' } }, { status: 400 });
      writePlcMemory(m, body.address, body.values);
      return Response.json({ address: body.address });
    }) as typeof fetch;
    const io = routesWordIo('http://127.0.0.1:1', 'COM1', fake);
    expect(await pushIecEvent(line('event COM1 single 9 1'), io)).toBe(4);
    expect(calls).toEqual([
      'GET /sim/plcs/COM1/memory?address=DT1000&count=1',
      'GET /sim/plcs/COM1/memory?address=DT1010&count=1',
      'POST /sim/plcs/COM1/memory',
      'POST /sim/plcs/COM1/memory',
    ]);
    expect(m.readWords('DT', 1010, 1)).toEqual([5]);
    expect(m.readWords('DT', 1010 + slotOffset(4), 5)).toEqual([1, 9, 0, 1, 0]);
    await expect(pushIecEvent(line('event COM1 single 9 1 area=FL'), io)).rejects.toThrow('outside FL');
  });
});
