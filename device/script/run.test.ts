// The script run's timing on an injected clock: a cycle that takes longer than its period is
// counted as an overrun and skipped, never stacked; a failing statement is reported with its line
// and the section goes on.
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../hw/types.ts';
import type { Operand } from '../model/script/language.ts';
import { parseScript } from '../model/script/parse.ts';
import { createLogger } from '../system/log.ts';
import { ScriptBook } from './book.ts';
import type { ScriptCsv } from './csv.ts';
import type { ScriptMemory } from './memory.ts';
import { decodeScriptValue, encodeScriptValue } from './memory.ts';
import { ScriptRun } from './run.ts';

class Clk implements Clock {
  t = Date.UTC(2026, 10, 21, 8);
  now() {
    return this.t;
  }
}

const wait = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

function rig(text: string, read: (o: Operand) => Promise<number>) {
  const clock = new Clk();
  const log = createLogger({ clock, sink: null });
  const book = new ScriptBook(clock);
  const parsed = parseScript(text);
  expect(parsed.errors).toEqual([]);
  book.program(parsed.program.sections);
  const written: number[] = [];
  const memory = {
    read,
    write: async (_o: Operand, v: number) => {
      written.push(v);
    },
    relay: async () => false,
  } as unknown as ScriptMemory;
  const csv = {
    closeFile: async () => {},
    close: async () => {},
    append: async () => ({ state: 'ok', detail: '', volume: 'internal' }),
  } as unknown as ScriptCsv;
  const run = new ScriptRun({ clock, log, ftp: undefined, tickMs: 5 }, parsed.program, memory, csv, book);
  return { clock, log, book, run, written };
}

describe('script run', () => {
  it('counts a cycle that comes due while it still runs as an overrun and never stacks it', async () => {
    let release: () => void = () => {};
    let reads = 0;
    const r = rig('[cycle 1]\nread a = DT 1\nwrite DT 2 = a', () => {
      reads++;
      return new Promise<number>((res) => {
        release = () => res(7);
      });
    });
    r.run.start();
    r.clock.t += 1000;
    await wait(() => reads === 1);
    for (let i = 0; i < 3; i++) {
      r.clock.t += 1000;
      await wait(() => r.book.status(true).script!.sections[0]!.overruns === i + 1);
    }
    release();
    await wait(() => r.book.status(true).script!.sections[0]!.runs === 1);
    await new Promise((res) => setTimeout(res, 50));
    expect(reads).toBe(1); // the skipped cycles did not run afterwards
    expect(r.written).toEqual([7]);
    const s = r.book.status(true);
    expect(s.counters).toEqual({ runs: 1, failed: 0, overruns: 3 });
    expect(r.log.recent().filter((e) => e.msg.includes('came due while it still ran'))).toHaveLength(3);
    // the next period runs again
    r.clock.t += 1000;
    await wait(() => reads === 2);
    release();
    await r.run.stop();
  });

  it('reports a failing statement with its line and goes on with the next one', async () => {
    const r = rig('[init]\nread a = DT 1\nread b = DT 2\nwrite DT 3 = b', async (o) => {
      if (o.address === 1) throw new Error('no answer');
      return 5;
    });
    r.run.start();
    await wait(() => r.book.status(true).script!.sections[0]!.runs === 1);
    const s = r.book.status(true);
    expect(s.script?.lastFailure).toMatchObject({ line: 2, message: 'no answer' });
    expect(s.lastError).toMatchObject({ code: 'other', message: 'line 2: no answer' });
    expect(r.written).toEqual([5]);
    await r.run.stop();
  });
});

describe('script values', () => {
  it('codes each type as the PLC holds it (32-bit low word first)', () => {
    expect(encodeScriptValue('INT', -30)).toEqual([65506]);
    expect(encodeScriptValue('UDINT', 70000)).toEqual([4464, 1]);
    expect(decodeScriptValue('DINT', [0xfffe, 0xffff])).toBe(-2);
    expect(decodeScriptValue('REAL', encodeScriptValue('REAL', 1.5))).toBe(1.5);
    expect(decodeScriptValue('BOOL', [0x8000])).toBe(1);
    expect(encodeScriptValue('BOOL', 5)).toEqual([1]);
    expect(() => encodeScriptValue('INT', 1.5)).toThrow(RangeError);
    expect(() => encodeScriptValue('UINT', 70000)).toThrow(RangeError);
  });
});
