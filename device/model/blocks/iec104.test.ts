// The IEC 104 PLC buffers (iec104.ts): the tables fit their lengths, the ring arithmetic, records
// decoded word by word as the layout says (and every malformed record refused with its code, never
// a throw), commands encoded into the 26 words and the answer words read back.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MonitorPoint, PlcCommand } from '../../iec104/points.ts';
import { EVENT_TYPES } from '../../iec104/points.ts';
import { CONTROL_BUFFER } from '../sections/iec.ts';
import { wordsMarkdown } from './describe.ts';
import {
  COMMAND_BUFFER,
  COMMAND_KIND,
  decodeCommandWords,
  decodeRecord,
  encodeCommand,
  encodeRecord,
  IEC_BUFFERS,
  pendingCount,
  pendingRuns,
  RECORD_KIND,
  RECORD_TYPES,
  RECORD_WORDS,
  readAnswer,
  ringCapacity,
  ringHasRoom,
  slotOffset,
} from './iec104.ts';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const rec = (words: number[]) => decodeRecord(words, 0, NOW);

describe('the tables', () => {
  it('every buffer uses each offset once, within its length; the command buffer is 26 words', () => {
    for (const b of IEC_BUFFERS) {
      expect(b.words.map((w) => w.offset)).toEqual(b.words.map((_, i) => i));
      expect(new Set(b.words.map((w) => w.name)).size).toBe(b.words.length);
    }
    expect(COMMAND_BUFFER).toHaveLength(CONTROL_BUFFER);
    expect(IEC_BUFFERS.find((b) => b.name === 'iec104_ring_record')!.words).toHaveLength(RECORD_WORDS);
    expect(Object.values(RECORD_TYPES).sort((a, b) => a - b)).toEqual(Object.keys(EVENT_TYPES).map(Number));
  });
});

describe('the ring', () => {
  it('capacity: floor((depth - 1) / 5); slot s at 1 + 5 s', () => {
    expect([5, 6, 10, 11, 501, 32765].map(ringCapacity)).toEqual([0, 1, 1, 2, 100, 6552]);
    expect([0, 1, 99].map(slotOffset)).toEqual([1, 6, 496]);
  });

  it('pending slots R..W-1 as at most two runs, wrapping at the capacity', () => {
    expect(pendingRuns(3, 3, 10)).toEqual([]);
    expect(pendingRuns(2, 5, 10)).toEqual([[2, 3]]);
    expect(pendingRuns(8, 0, 10)).toEqual([[8, 2]]);
    expect(pendingRuns(8, 3, 10)).toEqual([
      [8, 2],
      [0, 3],
    ]);
    expect(pendingCount(8, 3, 10)).toBe(5);
    expect(ringHasRoom(4, 3, 10)).toBe(false);
    expect(ringHasRoom(0, 9, 10)).toBe(false);
    expect(ringHasRoom(5, 3, 10)).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.nat(), fc.nat(), (cap, r0, w0) => {
        const r = r0 % cap;
        const w = w0 % cap;
        const runs = pendingRuns(r, w, cap);
        const slots = runs.flatMap(([s, n]) => Array.from({ length: n }, (_, i) => s + i));
        expect(slots).toEqual(Array.from({ length: pendingCount(r, w, cap) }, (_, i) => (r + i) % cap));
        expect(runs.every(([s, n]) => n > 0 && s + n <= cap)).toBe(true);
      }),
    );
  });
});

describe('records', () => {
  it('each type as the layout says: type | group << 8, IOA in two words, quality in the high byte, 32-bit value low word first', () => {
    const p = (type: number, group: number, ioa: number, q: number, w3: number, w4: number) =>
      rec([type | (group << 8), ioa & 0xffff, (ioa >>> 16) | (q << 8), w3, w4]);
    expect(p(1, 2, 0x123456, 0x80, 1, 0)).toEqual({
      ok: true,
      value: { type: 1, ioa: 0x123456, group: 2, at: NOW, element: { kind: 'siq', value: true, quality: 0x80 } },
    });
    expect(p(3, 0, 7, 0x10, 2, 0)).toMatchObject({ ok: true, value: { element: { kind: 'diq', value: 2, quality: 0x10 } } });
    expect(p(5, 0, 7, 0x01, 0xffc0, 1)).toMatchObject({ ok: true, value: { element: { kind: 'vti_qds', value: -64, transient: true, quality: 1 } } });
    expect(p(7, 16, 7, 0, 0x5678, 0x1234)).toMatchObject({ ok: true, value: { group: 16, element: { kind: 'bsi_qds', value: 0x12345678 } } });
    expect(p(9, 0, 7, 0x40, 0x8000, 0xffff)).toMatchObject({ ok: true, value: { element: { kind: 'nva_qds', value: -32768, quality: 0x40 } } });
    expect(p(11, 0, 7, 0, 1234, 0)).toMatchObject({ ok: true, value: { element: { kind: 'sva_qds', value: 1234 } } });
    // 1.5f = 0x3FC00000
    expect(p(13, 0, 7, 0x20, 0x0000, 0x3fc0)).toMatchObject({ ok: true, value: { element: { kind: 'r32_qds', value: 1.5, quality: 0x20 } } });
    expect(p(15, 0, 7, 0x80 | 0x40 | 0x20 | 17, 0xfffe, 0xffff)).toMatchObject({
      ok: true,
      value: { element: { kind: 'bcr', value: -2, sequence: 17, carry: true, adjusted: true, invalid: true } },
    });
  });

  it('a record the station cannot send is refused with its code', () => {
    const cases: [number[], string][] = [
      [[2, 1, 0, 0, 0], 'unknown_type'],
      [[0, 1, 0, 0, 0], 'unknown_type'],
      [[1 | (17 << 8), 1, 0, 0, 0], 'bad_group'],
      [[1, 0, 0, 0, 0], 'bad_ioa'],
      [[1, 1, 0, 2, 0], 'bad_value'],
      [[1, 1, 0, 0, 1], 'bad_value'],
      [[1, 1, 0x0100, 0, 0], 'bad_quality'], // OV on a single point
      [[3, 1, 0, 4, 0], 'bad_value'],
      [[5, 1, 0, 64, 0], 'bad_value'],
      [[5, 1, 0, 0, 2], 'bad_value'],
      [[9, 1, 0, 5, 0xffff], 'bad_value'], // the high word is no sign extension
      [[11, 1, 0, 0xfffb, 0], 'bad_value'],
      [[11, 1, 0x0200, 0, 0], 'bad_quality'], // a reserved QDS bit
      [[13, 1, 0, 0, 0x7fc0], 'bad_value'], // NaN
      [[13, 1, 0, 0, 0x7f80], 'bad_value'], // infinity
      [[1, 1, 0, 0, 70000], 'bad_word'],
      [[1, 1, 0, 0.5, 0], 'bad_word'],
      [[1, 1, 0, 0], 'short_record'],
    ];
    for (const [words, code] of cases) expect(rec(words), JSON.stringify(words)).toMatchObject({ ok: false, error: { code } });
    expect(decodeRecord([0, 1, 1, 0, 0, 0], 1, NOW)).toMatchObject({ ok: true, value: { ioa: 1 } });
    expect(decodeRecord([1, 1, 0, 0, 0], 1, NOW)).toMatchObject({ ok: false, error: { code: 'short_record' } });
    expect(decodeRecord([1, 1, 0, 0, 0], -1, NOW)).toMatchObject({ ok: false, error: { code: 'short_record' } });
  });

  it('never throws on any 5 words; what decodes encodes back to the same words', () => {
    const word = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 1, 0xffff, 0x8000), fc.integer(), fc.double());
    const typed = fc.tuple(fc.constantFrom(1, 3, 5, 7, 9, 11, 13, 15), fc.integer({ min: 0, max: 17 })).map(([t, g]) => t | (g << 8));
    fc.assert(
      fc.property(fc.tuple(fc.oneof(typed, word), word, word, word, word), (w) => {
        const r = decodeRecord(w, 0, NOW);
        if (r.ok) {
          expect(Object.keys(EVENT_TYPES).map(Number)).toContain(r.value.type);
          expect(r.value.element.kind).toBe(RECORD_KIND[r.value.type]);
          expect(encodeRecord(r.value)).toEqual(w.map((x) => x || 0)); // -0 reads as the word 0
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('encodeRecord refuses a point the layout cannot carry', () => {
    const good: Omit<MonitorPoint, 'at'> = { type: 11, ioa: 5, group: 0, element: { kind: 'sva_qds', value: 1, quality: 0 } };
    expect(encodeRecord(good)).toEqual([11, 5, 0, 1, 0]);
    expect(() => encodeRecord({ ...good, ioa: 0 })).toThrow(RangeError);
    expect(() => encodeRecord({ ...good, group: 17 })).toThrow(RangeError);
    expect(() => encodeRecord({ ...good, type: 9 })).toThrow(RangeError);
    expect(() => encodeRecord({ ...good, element: { kind: 'sva_qds', value: 40000, quality: 0 } })).toThrow(RangeError);
    expect(() => encodeRecord({ type: 1, ioa: 1, group: 0, element: { kind: 'siq', value: true, quality: 1 } })).toThrow(RangeError);
  });
});

describe('commands', () => {
  const base: PlcCommand = { seq: 7, type: 45, ioa: 0x010203, element: { kind: 'sco', value: true, qualifier: 3, select: false }, originator: 9, group: 2 };

  it('the 26 words: request, cleared answer words, type, IOA, qualifier, value, time tag, originator, entry, zeros', () => {
    expect(encodeCommand(base)).toEqual([7, 0, 0, 0, 45, 0x0203, 0x01, 3, 1, 0, 0, 0, 0, 0, 9, 2, ...Array(10).fill(0)]);
    const at = Date.UTC(2026, 5, 30, 23, 59, 58, 765);
    const timed = encodeCommand({ ...base, type: 63, element: { kind: 'r32_qos', value: -2.5, ql: 5, select: false }, at });
    // -2.5f = 0xC0200000
    expect(timed.slice(4, 16)).toEqual([63, 0x0203, 1, 5, 0x0000, 0xc020, 58765, 59 | (23 << 8), 30 | (6 << 8), 26, 9, 2]);
    expect(decodeCommandWords(timed)).toEqual({ request: 7, type: 63, ioa: 0x010203, qualifier: 5, value: 0xc0200000, at, originator: 9, connection: 2 });
    const sva = encodeCommand({ ...base, type: 49, element: { kind: 'sva_qos', value: -3, ql: 0, select: false } });
    expect(sva.slice(7, 10)).toEqual([0, 0xfffd, 0xffff]);
    expect(encodeCommand({ ...base, type: 46, element: { kind: 'dco', value: 2, qualifier: 0, select: false } }).slice(8, 10)).toEqual([2, 0]);
    expect(encodeCommand({ ...base, type: 51, element: { kind: 'bsi', value: 0xdeadbeef } }).slice(7, 10)).toEqual([0, 0xbeef, 0xdead]);
  });

  it('refuses what the buffer cannot carry', () => {
    expect(() => encodeCommand({ ...base, seq: 0 })).toThrow(RangeError);
    expect(() => encodeCommand({ ...base, seq: 65536 })).toThrow(RangeError);
    expect(() => encodeCommand({ ...base, type: 100 })).toThrow(RangeError);
    expect(() => encodeCommand({ ...base, type: 46 })).toThrow(RangeError);
    expect(() => encodeCommand({ ...base, at: NOW })).toThrow(RangeError); // 45 has no time tag
    expect(() => encodeCommand({ ...base, group: 4 })).toThrow(RangeError);
    expect(Object.keys(COMMAND_KIND).map(Number)).toEqual([45, 46, 47, 48, 49, 50, 51, 58, 59, 60, 61, 62, 63, 64]);
  });

  it('the answer words: nothing until w1 holds the number; w2 decides; w3 finishes', () => {
    expect(readAnswer([7, 0, 0, 0], 7)).toBeUndefined();
    expect(readAnswer([7, 6, 0, 6], 7)).toBeUndefined(); // the answer of the previous command
    expect(readAnswer([7, 7, 0, 0], 7)).toEqual({ seq: 7, kind: 'accepted' });
    expect(readAnswer([7, 7, 0, 7], 7)).toEqual({ seq: 7, kind: 'done' });
    expect(readAnswer([7, 7, 1, 0], 7)).toEqual({ seq: 7, kind: 'refused', reason: 'unknown_ioa' });
    expect(readAnswer([7, 7, 2, 0], 7)).toEqual({ seq: 7, kind: 'refused', reason: 'not_now' });
    expect(readAnswer([7, 7, 3, 7], 7)).toEqual({ seq: 7, kind: 'refused', reason: 'out_of_range' });
    expect(readAnswer([7, 7, 99, 0], 7)).toEqual({ seq: 7, kind: 'refused', reason: 'other' });
    expect(readAnswer([], 7)).toBeUndefined();
  });
});

describe('the pages', () => {
  it('docs/services.md and docs/iec104.md carry every buffer table as the tables say (npx tsx build/services-doc.ts)', () => {
    for (const doc of ['services.md', 'iec104.md']) {
      const page = readFileSync(new URL(`../../../docs/${doc}`, import.meta.url), 'utf8');
      for (const b of IEC_BUFFERS) {
        const part = new RegExp(`<!-- generated: ${b.name} -->\\n([\\s\\S]*?)\\n<!-- end generated -->`).exec(page)?.[1];
        expect(part, `${doc} ${b.name}`).toBe(wordsMarkdown(b.words, b.base));
      }
    }
  });
});

describe('the library example', () => {
  it('README.txt lists every buffer word by word; iec104_buffers.json carries the same words', async () => {
    const { libraryFiles } = await import('../../system/example-library.ts');
    const files = Object.fromEntries(libraryFiles().map((f) => [f.name, f.data]));
    const json = JSON.parse(files['iec104_buffers.json']!) as { buffers: { name: string; field: string; words: { name: string }[] }[] };
    expect(json.buffers.map((b) => [b.name, b.field, b.words.map((w) => w.name)])).toEqual(
      IEC_BUFFERS.map((b) => [b.name, b.field, b.words.map((w) => w.name)]),
    );
    for (const b of IEC_BUFFERS) expect(files['README.txt']).toContain(`${b.at}:`);
    expect(files['README.txt']).toMatch(/\n {2}c\+0 +request +unit → PLC +request number 1-65535/);
  });
});
