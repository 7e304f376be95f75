import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASDU_MAX_LENGTH } from '../protocol/iec104/apci.ts';
import { decodeAsdu } from '../protocol/iec104/asdu.ts';
import { cp56FromEpochMs } from '../protocol/iec104/cp56.ts';
import { type ElementValue, QUALITY } from '../protocol/iec104/elements.ts';
import { answerAsdus, checkPoint, objectsPerAsdu, ProcessImage, TIME_TAGGED, timeTag, withQuality } from './image.ts';
import { EVENT_TYPES, type EventType } from './points.ts';
import { counter, hex, point, sp, WALL } from './station-testing.ts';

const BCR: ElementValue = { kind: 'bcr', value: 5, sequence: 3, carry: false, adjusted: false, invalid: false };

describe('IEC 104 station image', () => {
  it('each monitor type has its CP56Time2a type (1 → 30 ... 15 → 37)', () => {
    expect(Object.keys(EVENT_TYPES).map((t) => [Number(t), TIME_TAGGED[Number(t) as EventType]])).toEqual([
      [1, 30],
      [3, 31],
      [5, 32],
      [7, 33],
      [9, 34],
      [11, 35],
      [13, 36],
      [15, 37],
    ]);
  });

  it('withQuality: invalid sets IV and NT, not topical NT only, keeping the other bits; a counter sets its IV bit', () => {
    const siq: ElementValue = { kind: 'siq', value: true, quality: QUALITY.BL };
    expect(withQuality(siq, 'fresh')).toBe(siq);
    expect(withQuality(siq, 'invalid')).toEqual({ ...siq, quality: QUALITY.BL | QUALITY.IV | QUALITY.NT });
    expect(withQuality(siq, 'not_topical')).toEqual({ ...siq, quality: QUALITY.BL | QUALITY.NT });
    expect(withQuality({ kind: 'r32_qds', value: 1, quality: QUALITY.OV }, 'invalid')).toEqual({
      kind: 'r32_qds',
      value: 1,
      quality: QUALITY.OV | QUALITY.IV | QUALITY.NT,
    });
    expect(withQuality(BCR, 'not_topical')).toEqual({ ...BCR, invalid: true });
    expect(withQuality(BCR, 'invalid')).toEqual({ ...BCR, invalid: true });
    expect(siq.quality).toBe(QUALITY.BL); // the image's own value is not changed
  });

  it('timeTag: 2000-2099 as UTC fields; before 2000, after 2099 or not a number: 2000-01-01 with the IV bit of the time tag', () => {
    expect(timeTag(WALL)).toEqual(cp56FromEpochMs(WALL));
    expect(timeTag(WALL + 0.7)).toEqual(cp56FromEpochMs(WALL));
    const invalid = { ...cp56FromEpochMs(Date.UTC(2000, 0, 1)), invalid: true };
    for (const t of [0, Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2100, 0, 1), Number.NaN, Number.POSITIVE_INFINITY])
      expect(timeTag(t)).toEqual(invalid);
  });

  it('objects per ASDU: as many as fit in 249 octets with SQ = 0 (IOA 3 octets + element)', () => {
    expect([1, 3, 5, 7, 9, 11, 13, 15].map(objectsPerAsdu)).toEqual([60, 60, 48, 30, 40, 40, 30, 30]);
    expect(() => objectsPerAsdu(2)).toThrow(RangeError);
  });

  it('answer ASDUs: consecutive points of one type share an ASDU; a new type starts a new one', () => {
    const a = answerAsdus(
      [
        { type: 1, ioa: 1, element: { kind: 'siq', value: true, quality: 0 } },
        { type: 1, ioa: 2, element: { kind: 'siq', value: false, quality: QUALITY.IV } },
        { type: 11, ioa: 3, element: { kind: 'sva_qds', value: -2, quality: 0 } },
      ],
      21,
      { ca: 0x0102, originator: 4, test: true },
    );
    expect(a.map(hex)).toEqual(['01 02 95 04 02 01 01 00 00 01 02 00 00 80', '0b 01 95 04 02 01 03 00 00 fe ff 00']);
    expect(answerAsdus([], 20, { ca: 1, originator: 0, test: false })).toEqual([]);
  });

  it('property: every point is sent once and in order, no ASDU passes 249 octets or mixes types', () => {
    const arb = fc.array(
      fc.oneof(
        fc.integer({ min: 1, max: 0xffffff }).map((ioa) => ({ type: 1 as const, ioa, element: { kind: 'siq', value: true, quality: 0 } as ElementValue })),
        fc.integer({ min: 1, max: 0xffffff }).map((ioa) => ({ type: 15 as const, ioa, element: BCR })),
        fc.integer({ min: 1, max: 0xffffff }).map((ioa) => ({ type: 7 as const, ioa, element: { kind: 'bsi_qds', value: ioa, quality: 0 } as ElementValue })),
      ),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(arb, (points) => {
        const out = answerAsdus(points, 20, { ca: 1, originator: 0, test: false });
        const objects = out.flatMap((b) => {
          expect(b.length).toBeLessThanOrEqual(ASDU_MAX_LENGTH);
          const d = decodeAsdu(b);
          expect(d.ok).toBe(true);
          return d.ok ? d.value.objects.map((o) => ({ type: d.value.type, ioa: o.ioa, element: o.element })) : [];
        });
        expect(objects).toEqual(points);
      }),
      { numRuns: 100 },
    );
  });

  it('checkPoint: the type, IOA 1-16777215, group 0-16 and the element the type carries', () => {
    expect(() => checkPoint(sp(0xffffff, true, 16))).not.toThrow();
    for (const bad of [
      { ...sp(1, true), type: 2 as EventType },
      sp(0, true),
      sp(0x1000000, true),
      sp(1, true, 17),
      sp(1, true, -1),
      point(1, 1, BCR),
      point(5, 1, { kind: 'vti_qds', value: 64, transient: false, quality: 0 }),
      point(1, 1, { kind: 'siq', value: true, quality: QUALITY.OV }), // OV is no SIQ bit
      counter(1, 2 ** 31),
    ])
      expect(() => checkPoint(bad)).toThrow(RangeError);
  });

  it('the image: an outage makes every value stale; a new value of the IOA is fresh again and says it was stale', () => {
    const img = new ProcessImage();
    expect(img.set(sp(1, true))).toBe(false);
    img.set(sp(2, true, 4));
    img.setPlc(false);
    expect(img.plcAnswers).toBe(false);
    expect(img.get(1)?.element).toEqual({ kind: 'siq', value: true, quality: QUALITY.IV | QUALITY.NT });
    img.setPlc(true);
    expect(img.get(1)?.element).toEqual({ kind: 'siq', value: true, quality: QUALITY.NT });
    expect(img.set(sp(1, false))).toBe(true);
    expect(img.set(sp(1, false))).toBe(false);
    expect(img.get(1)?.element).toEqual({ kind: 'siq', value: false, quality: 0 });
    expect(img.pick((p) => p.group === 4).map((p) => p.ioa)).toEqual([2]);
    expect(img.get(3)).toBeUndefined();
    expect(img.size).toBe(2);
  });
});
