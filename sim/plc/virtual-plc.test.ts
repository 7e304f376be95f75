import { describe, expect, it } from 'vitest';
import { DEFAULT_SCAN_MS, VirtualPlc } from './virtual-plc.ts';

describe('virtual PLC', () => {
  it('has a model, station, scan time and mode, and describes itself as plain JSON', () => {
    const plc = new VirtualPlc({ model: 'FP0R', station: 247 });
    plc.memory.writeWords('DT', 0, [1]);
    plc.memory.running = false;
    const d = plc.describe();
    expect(d).toEqual({ model: 'FP0R', station: 247, mode: 'PROG', scanMs: DEFAULT_SCAN_MS, fault: { kind: 'none' }, requests: 0, answers: 0, writes: 1 });
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });

  it('refuses stations outside 1-247 and negative scan times, at creation and later', () => {
    expect(() => new VirtualPlc({ model: 'FP-X', station: 0 })).toThrow('station 0 not in 1-247');
    expect(() => new VirtualPlc({ model: 'FP-X', station: 248 })).toThrow(RangeError);
    expect(() => new VirtualPlc({ model: 'FP-X', scanMs: -1 })).toThrow('scan time');
    const plc = new VirtualPlc({ model: 'FP-X' });
    expect(() => {
      plc.station = 1.5;
    }).toThrow(RangeError);
    plc.station = 99;
    plc.scanMs = 0;
    expect(plc.describe()).toMatchObject({ station: 99, scanMs: 0 });
  });

  it('gives each request the fault set now; a counted fault ends after that many requests', () => {
    const plc = new VirtualPlc({ model: 'FP-X' });
    expect(plc.request()).toEqual({ kind: 'none' });
    plc.setFault({ kind: 'error', code: 42, count: 2 });
    expect(plc.describe().fault).toEqual({ kind: 'error', code: 42, count: 2 });
    expect(plc.request(false)).toEqual({ kind: 'none' }); // a broadcast takes no fault
    expect(plc.request()).toEqual({ kind: 'error', code: 42, count: 2 });
    expect(plc.fault).toEqual({ kind: 'error', code: 42, count: 1 });
    expect(plc.request()).toMatchObject({ kind: 'error' });
    expect(plc.request()).toEqual({ kind: 'none' });
    plc.setFault({ kind: 'slow', delayMs: 100 });
    for (let i = 0; i < 5; i++) expect(plc.request().kind).toBe('slow');
    plc.setFault({ kind: 'none' });
    expect(plc.request().kind).toBe('none');
    plc.answered();
    expect(plc.describe()).toMatchObject({ requests: 11, answers: 1 });
  });

  it('the fault it reports is a copy', () => {
    const plc = new VirtualPlc({ model: 'FP-X' });
    const f = { kind: 'garble' as const, count: 3 };
    plc.setFault(f);
    f.count = 1;
    (plc.fault as { count?: number }).count = 1;
    expect(plc.fault).toEqual({ kind: 'garble', count: 3 });
  });
});
