import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { INTERFACE_IDS } from '../model/plc.ts';
import { LOG_AREA_CODES, LOG_TYPE_CODES, type LogFile, logFileRules, logFileSchema, recordSchema, typeWords } from '../model/sections/logfile.ts';
import { BIT_AREA_WORDS, formatBitOffset } from '../protocol/areas.ts';
import { BIT_WORD_AREAS, filePoints, logPoints, pointKey, pointSource, pointStation } from './points.ts';

const record = (r: object) => v.parse(recordSchema, { name: 'p', ...r });
const file = (f: object, records: object[] = []): LogFile => v.parse(logFileSchema, { name: 'f', ...f, records: records.map((r) => ({ name: 'p', ...r })) });

describe('points: a record resolved into its PointSource (spec §3, §5)', () => {
  it('word areas: DT, FL, LD with the words of the type', () => {
    const f = file({ interface: 0 });
    expect(pointSource(f, record({ if: 0, area: 1, reg_addr: '100', type: 0 }), '0.0')).toEqual({
      ok: true,
      value: { key: '0.0', interfaceId: 0, station: 0, area: 'DT', word: 100, words: 1 },
    });
    expect(pointSource(f, record({ if: 5, area: 2, reg_addr: '7', type: 7 }), '0.1')).toEqual({
      ok: true,
      value: { key: '0.1', interfaceId: 5, station: 0, area: 'FL', word: 7, words: 2 },
    });
    expect(pointSource(f, record({ if: 3, area: 3, reg_addr: '0', type: 14 }), '2.9')).toEqual({
      ok: true,
      value: { key: '2.9', interfaceId: 3, station: 0, area: 'LD', word: 0, words: 4 },
    });
    // STRING: 2 header words + 24 words of text
    const s = pointSource(f, record({ area: 1, reg_addr: '500', type: 13 }), 'k');
    expect(s.ok && s.value.words).toBe(26);
    // STRING[10]: 2 header words + 5 words of text
    const s10 = pointSource(f, record({ area: 1, reg_addr: '500', type: 13, str_len: 10 }), 'k');
    expect(s10.ok && s10.value.words).toBe(7);
  });

  it('bit areas: X → WX, Y → WY, R → WR; the last character is the bit (hex)', () => {
    const f = file({});
    const bit = (area: number, reg_addr: string) => {
      const r = pointSource(f, record({ area, reg_addr, type: 0 }), 'k');
      return r.ok ? { area: r.value.area, word: r.value.word, bit: r.value.bit, words: r.value.words } : r.error.code;
    };
    expect(bit(4, '10A')).toEqual({ area: 'WX', word: 10, bit: 10, words: 1 });
    expect(bit(5, '1')).toEqual({ area: 'WY', word: 0, bit: 1, words: 1 });
    expect(bit(6, '10')).toEqual({ area: 'WR', word: 1, bit: 0, words: 1 });
    expect(bit(5, '999F')).toEqual('address_out_of_range'); // WY ends at word 512 (spec §9)
    expect(bit(6, '999F')).toEqual({ area: 'WR', word: 999, bit: 15, words: 1 }); // WR at 2048
    expect(bit(4, '512f')).toEqual({ area: 'WX', word: 512, bit: 15, words: 1 });
    expect(bit(4, '513F')).toEqual('address_out_of_range');
    expect(bit(6, 'A')).toEqual('invalid_bit_address');
    expect(bit(6, '1G')).toEqual('invalid_bit_address');
    // a bit point reads one word whatever its type
    const r = pointSource(f, record({ area: 6, reg_addr: '5', type: 9 }), 'k');
    expect(r.ok && r.value.words).toBe(1);
  });

  it('word addresses: decimal digits inside the area with every word of the value', () => {
    const f = file({});
    const code = (area: number, reg_addr: string, type = 0) => {
      const r = pointSource(f, record({ area, reg_addr, type }), 'k');
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(1, '999424')).toBe('ok');
    expect(code(1, '999424', 4)).toBe('address_out_of_range'); // a DINT needs DT999425
    expect(code(1, '999423', 4)).toBe('ok');
    expect(code(2, '32765')).toBe('ok');
    expect(code(2, '32766')).toBe('address_out_of_range');
    expect(code(3, '16384', 9)).toBe('address_out_of_range');
    expect(code(3, '16381', 9)).toBe('ok');
    expect(code(1, '1A')).toBe('invalid_characters');
    expect(code(1, '-1')).toBe('invalid_characters');
  });

  it('station: the record’s, else the log file’s on the same interface, else the link’s own', () => {
    const f = file({ interface: 5, plc_addr: 12 });
    expect(pointStation(f, record({ if: 5, plc_addr: 3 }))).toBe(3);
    expect(pointStation(f, record({ if: 5, plc_addr: 0 }))).toBe(12);
    expect(pointStation(f, record({ if: 0, plc_addr: 0 }))).toBe(0);
    expect(pointStation(f, record({ if: 0, plc_addr: 7 }))).toBe(7);
    expect(pointStation(file({ interface: 5, plc_addr: 0 }), record({ if: 5, plc_addr: 0 }))).toBe(0);
  });

  it('the bit areas’ word views agree with the protocol’s', () => {
    for (const a of ['X', 'Y', 'R'] as const) expect(BIT_WORD_AREAS[a]).toBe(BIT_AREA_WORDS[a]);
  });

  it('all points of a Log in order, keyed <file>.<record>; unresolvable records reported by key', () => {
    const log = {
      log_def: [
        file({ interface: 0, plc_addr: 2 }, [
          { if: 0, area: 1, reg_addr: '10' },
          { if: 0, area: 6, reg_addr: '3F' },
        ]),
        file({ id: 2, name: 'g' }, []),
        file({ id: 3, name: 'h' }, [
          { if: 4, area: 1, reg_addr: 'x1' },
          { if: 4, area: 3, reg_addr: '4', type: 5 },
        ]),
      ],
    };
    const r = logPoints(log);
    expect(r.points).toEqual([
      { key: '0.0', interfaceId: 0, station: 2, area: 'DT', word: 10, words: 1 },
      { key: '0.1', interfaceId: 0, station: 2, area: 'WR', word: 3, words: 1, bit: 15 },
      { key: '2.1', interfaceId: 4, station: 0, area: 'LD', word: 4, words: 2 },
    ]);
    expect(r.problems.map((p) => [p.key, p.code])).toEqual([['2.0', 'invalid_characters']]);
    expect(filePoints(log.log_def[2]!, 7).points.map((p) => p.key)).toEqual(['7.1']);
    expect(pointKey(15, 699)).toBe('15.699');
  });

  it('property: a record resolves exactly when the model accepts its address, and the point stays inside its area', () => {
    const regAddr = fc.oneof(
      fc.stringMatching(/^\d{1,6}$/),
      fc.stringMatching(/^\d{0,3}[0-9A-Fa-f]$/),
      fc.string({ maxLength: 6 }).filter((s) => s.length > 0),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...LOG_AREA_CODES),
        fc.constantFrom(...LOG_TYPE_CODES),
        regAddr,
        fc.constantFrom(...INTERFACE_IDS),
        (area, type, reg_addr, ifId) => {
          const rec = record({ area, type, reg_addr, if: ifId, format: 'momentary' });
          const f = file({}, [rec]);
          const modelOk = !logFileRules(f, 'f').some((i) => i.path === 'f.records.0.reg_addr');
          const r = pointSource(f, rec, '0.0');
          expect(r.ok).toBe(modelOk);
          if (!r.ok) return;
          const p = r.value;
          expect(p.interfaceId).toBe(ifId);
          if (area >= 4) {
            expect(p.words).toBe(1);
            expect(p.bit).toBeGreaterThanOrEqual(0);
            expect(p.bit).toBeLessThanOrEqual(15);
            // the address written back from word and bit names the same contact
            expect(Number.parseInt(formatBitOffset(p.word, p.bit!).slice(-1), 16)).toBe(p.bit);
            expect(formatBitOffset(p.word, p.bit!)).toBe(formatBitOffset(Number(reg_addr.slice(0, -1) || 0), Number.parseInt(reg_addr.slice(-1), 16)));
          } else {
            expect(p.bit).toBeUndefined();
            expect(p.words).toBe(typeWords(type));
            expect(p.word).toBe(Number(reg_addr));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
