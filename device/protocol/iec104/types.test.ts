import { describe, expect, it } from 'vitest';
import { CP56_LENGTH } from './cp56.ts';
import { ELEMENT_KINDS, elementSize } from './elements.ts';
import { servedType, TYPES, typeId, typeInfo } from './types.ts';

describe('IEC 104 type table', () => {
  it('ids and names are unique; every served type has a codec whose size matches the table', () => {
    expect(new Set(TYPES.map((t) => t.id)).size).toBe(TYPES.length);
    expect(new Set(TYPES.map((t) => t.name)).size).toBe(TYPES.length);
    for (const t of TYPES) {
      if (t.support !== 'yes') {
        expect(t.element).toBeNull();
        continue;
      }
      expect(ELEMENT_KINDS).toContain(t.element);
      expect(t.size).toBe(elementSize(t.element as never) + (t.time === 'cp56' ? CP56_LENGTH : 0));
    }
  });

  it('serves what the issue names: monitor 1, 3, 5, 7, 9, 11, 13, 15, 20, 21, 30-37; commands 45-51, 58-64; system 70, 100-103, 105, 107', () => {
    const want = [
      1, 3, 5, 7, 9, 11, 13, 15, 20, 21, 30, 31, 32, 33, 34, 35, 36, 37, 45, 46, 47, 48, 49, 50, 51, 58, 59, 60, 61, 62, 63, 64, 70, 100, 101, 102, 103, 105,
      107,
    ];
    expect(TYPES.filter((t) => servedType(t.id)).map((t) => t.id)).toEqual(want);
  });

  it('104 uses no CP24Time2a type (clause 8), nor C_TS_NA_1 and C_CD_NA_1', () => {
    for (const t of TYPES.filter((x) => x.time === 'cp24')) expect(t.support).toBe('not_in_104');
    expect(typeInfo(104)?.support).toBe('not_in_104');
    expect(typeInfo(106)?.support).toBe('not_in_104');
    expect(typeId('C_IC_NA_1')).toBe(100);
    expect(() => typeId('C_XX_NA_1')).toThrow(RangeError);
    expect(servedType(2)).toBeUndefined();
    expect(servedType(38)).toBeUndefined();
  });
});
