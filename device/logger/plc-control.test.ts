import { describe, expect, it } from 'vitest';
import { type ControlIo, plcWantsLogging, StatusReporter, statusWords } from './plc-control.ts';

const REGS = { mem_write_stop: 380, mem_write_error: 381, mem_write_status: 382, mem_notify: 383 };

function fakePlc() {
  const mem = new Map<number, number>();
  const writes: [number, number][] = [];
  let failing = false;
  const io: ControlIo = {
    readWord: async (a) => {
      if (failing) throw new Error('no answer');
      return mem.get(a) ?? 0;
    },
    writeWord: async (a, v) => {
      if (failing) throw new Error('no answer');
      writes.push([a, v]);
      mem.set(a, v);
    },
  };
  return {
    io,
    mem,
    writes,
    fail: (f: boolean) => {
      failing = f;
    },
  };
}

describe('status registers', () => {
  it('each state has its register values', () => {
    expect(statusWords('ok')).toEqual({ mem_write_stop: 0, mem_write_error: 0, mem_write_status: 0, mem_notify: 0 });
    expect(statusWords('stopped')).toEqual({ mem_write_stop: 1, mem_write_error: 0, mem_write_status: 1, mem_notify: 0 });
    expect(statusWords('error')).toEqual({ mem_write_stop: 0, mem_write_error: 1, mem_write_status: 2, mem_notify: 0 });
    expect(statusWords('low_memory')).toEqual({ mem_write_stop: 0, mem_write_error: 0, mem_write_status: 3, mem_notify: 1 });
  });

  it('writes all registers first, then only the ones that change', async () => {
    const plc = fakePlc();
    const r = new StatusReporter(plc.io, { enable_mem_ctrl: true, ...REGS });
    expect(await r.report('ok')).toBe(true);
    expect(plc.writes).toEqual([
      [380, 0],
      [381, 0],
      [382, 0],
      [383, 0],
    ]);
    plc.writes.length = 0;
    await r.report('ok');
    expect(plc.writes).toEqual([]);
    await r.report('error');
    expect(plc.writes).toEqual([
      [381, 1],
      [382, 2],
    ]);
    expect([...plc.mem.entries()].sort()).toEqual([
      [380, 0],
      [381, 1],
      [382, 2],
      [383, 0],
    ]);
  });

  it('a failed write is repeated with the next report, so the PLC ends with the current state', async () => {
    const plc = fakePlc();
    const r = new StatusReporter(plc.io, { enable_mem_ctrl: true, ...REGS });
    await r.report('ok');
    plc.fail(true);
    expect(await r.report('low_memory')).toBe(false);
    plc.fail(false);
    expect(await r.report('low_memory')).toBe(true);
    expect(plc.mem.get(382)).toBe(3);
    expect(plc.mem.get(383)).toBe(1);
  });

  it('writes nothing without enable_mem_ctrl', async () => {
    const plc = fakePlc();
    await new StatusReporter(plc.io, { enable_mem_ctrl: false, ...REGS }).report('error');
    expect(plc.writes).toEqual([]);
  });
});

describe('the PLC starting and stopping the logger', () => {
  it('follows DT plc_ctrl_wr: non-zero logs, zero stops, unreadable keeps the last decision', async () => {
    const plc = fakePlc();
    const cfg = { enable_plc_ctrl: true, plc_ctrl_wr: 384 };
    expect(await plcWantsLogging(plc.io, cfg)).toBe(false);
    plc.mem.set(384, 1);
    expect(await plcWantsLogging(plc.io, cfg)).toBe(true);
    plc.mem.set(384, 0x8000);
    expect(await plcWantsLogging(plc.io, cfg)).toBe(true);
    plc.fail(true);
    expect(await plcWantsLogging(plc.io, cfg)).toBeUndefined();
    expect(await plcWantsLogging(plc.io, { enable_plc_ctrl: false, plc_ctrl_wr: 384 })).toBe(true);
  });
});
