import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { iecSchema } from '../model/sections/iec.ts';
import { ASDU_MAX_LENGTH } from '../protocol/iec104/apci.ts';
import { decodeHeader, encodeAsdu } from '../protocol/iec104/asdu.ts';
import { COT } from '../protocol/iec104/cot.ts';
import { cp56FromEpochMs } from '../protocol/iec104/cp56.ts';
import { QUALITY } from '../protocol/iec104/elements.ts';
import { servedType, TYPES } from '../protocol/iec104/types.ts';
import type { MonitorPoint } from './points.ts';
import { Iec104Station, stationSettings } from './station.ts';
import { answers, cause, counter, events, expectWellFormed, hex, kinds, octets, point, request, SETTINGS, sp, station, WALL } from './station-testing.ts';

const GI = '64 01 06 03 01 00 00 00 00 14'; // C_IC_NA_1 QOI 20, originator 3, CA 1

describe('IEC 104 station: start and spontaneous data', () => {
  it('start: end of initialization M_EI_NA_1, COI 0, COT 4, configured originator, once', () => {
    const s = new Iec104Station<string>(SETTINGS);
    const a = s.start(0, WALL);
    expect(a.map((x) => (x.kind === 'event' ? hex(x.asdu) : x.kind))).toEqual(['46 01 04 09 01 00 00 00 00 00']);
    expect(s.start(1, WALL)).toEqual([]);
    expect(s.status(0).started).toBe(true);
  });

  it('an event before start() still goes out after the end of initialization', () => {
    const s = new Iec104Station<string>(SETTINGS);
    const e = events(s.event(0, sp(100, true)));
    expect(e.map((x) => x.type)).toEqual([70, 30]);
    expect(events(s.start(1, WALL))).toEqual([]);
  });

  it('a PLC event goes out spontaneously with CP56Time2a: M_SP_TB_1 ON at IOA 100, 2026-05-12 10:30:00.000 (Tuesday)', () => {
    const s = station();
    const a = s.event(0, sp(100, true));
    expect(a).toHaveLength(1);
    expect(a[0]?.kind === 'event' && hex(a[0].asdu)).toBe('1e 01 03 09 01 00 64 00 00 01 00 00 1e 0a 4c 05 1a');
  });

  it('each monitor type goes out as its CP56Time2a type, COT 3, with the originator of the settings', () => {
    const cases: [MonitorPoint, number][] = [
      [sp(1, false), 30],
      [point(3, 2, { kind: 'diq', value: 2, quality: 0 }), 31],
      [point(5, 3, { kind: 'vti_qds', value: -5, transient: true, quality: 0 }), 32],
      [point(7, 4, { kind: 'bsi_qds', value: 0xdeadbeef, quality: 0 }), 33],
      [point(9, 5, { kind: 'nva_qds', value: -16384, quality: QUALITY.OV }), 34],
      [point(11, 6, { kind: 'sva_qds', value: 1234, quality: 0 }), 35],
      [point(13, 7, { kind: 'r32_qds', value: 21.5, quality: 0 }), 36],
      [counter(8, 123456), 37],
    ];
    const s = station();
    for (const [p, type] of cases) {
      const [e] = events(s.event(0, p));
      expect(e).toEqual({
        type,
        sq: false,
        cot: cause(COT.spontaneous),
        originator: 9,
        ca: 1,
        objects: [{ ioa: p.ioa, element: p.element, time: cp56FromEpochMs(WALL) }],
      });
    }
  });

  it('an event time CP56Time2a cannot carry (a clock before 2000) goes out as 2000-01-01 with the time tag invalid', () => {
    const [e] = events(station().event(0, { ...sp(1, true), at: Date.UTC(1970, 0, 1, 0, 5) }));
    expect(e?.objects[0]?.time).toEqual({ ...cp56FromEpochMs(Date.UTC(2000, 0, 1)), invalid: true });
  });

  it('a point no ASDU can carry is a RangeError and leaves the image as it was', () => {
    const s = station();
    expect(() => s.event(0, point(1, 5, { kind: 'diq', value: 1, quality: 0 }))).toThrow(RangeError);
    expect(() => s.event(0, point(3, 5, { kind: 'diq', value: 4, quality: 0 }))).toThrow(RangeError);
    expect(() => s.event(0, sp(0, true))).toThrow(RangeError);
    expect(() => s.refresh(0, [sp(6, true), sp(7, true, 17)])).toThrow(RangeError);
    expect(s.status(0).points).toBe(0);
    expect(answers(s.receive(0, WALL, 'a', octets(GI))).map((x) => x.asdu.cot.cause)).toEqual([7, 10]);
  });
});

describe('IEC 104 station: interrogation', () => {
  it('station interrogation: ACTCON, the image without time tag (COT 20, SQ=0), ACTTERM, to the requester only, in this order', () => {
    const s = station();
    s.event(0, sp(101, false));
    s.event(0, sp(100, true));
    s.event(0, point(13, 50, { kind: 'r32_qds', value: 1, quality: 0 }, 3));
    const a = s.receive(0, WALL, 'b', octets(GI));
    expect(kinds(a)).toEqual(['to_connection', 'to_connection', 'to_connection', 'to_connection']);
    expect(a.map((x) => (x.kind === 'to_connection' ? `${x.connection}: ${hex(x.asdu)}` : ''))).toEqual([
      'b: 64 01 07 03 01 00 00 00 00 14',
      'b: 01 02 14 03 01 00 64 00 00 01 65 00 00 00',
      'b: 0d 01 14 03 01 00 32 00 00 00 00 80 3f 00',
      'b: 64 01 0a 03 01 00 00 00 00 14',
    ]);
  });

  it('group interrogation 1-16 (QOI 21-36): the points of that group, COT 21-36 (station 20 vs group cause)', () => {
    const s = station();
    for (let g = 0; g <= 16; g++) s.event(0, sp(1000 + g, true, g));
    for (let g = 1; g <= 16; g++) {
      const r = answers(s.receive(0, WALL, 'a', request(100, [{ ioa: 0, element: { kind: 'qoi', qoi: 20 + g } }])));
      expect(r.map((x) => x.asdu.cot.cause)).toEqual([7, 20 + g, 10]);
      expect(r[1]?.asdu.objects.map((o) => o.ioa)).toEqual([1000 + g]);
    }
    const station20 = answers(s.receive(0, WALL, 'a', octets(GI)));
    expect(station20.map((x) => x.asdu.cot.cause)).toEqual([7, 20, 10]);
    expect(station20[1]?.asdu.objects).toHaveLength(17);
  });

  it('integrated totals answer the counter interrogation, not the station interrogation', () => {
    const s = station();
    s.event(0, counter(5, 7));
    s.event(0, sp(6, true));
    const r = answers(s.receive(0, WALL, 'a', octets(GI)));
    expect(r.map((x) => x.asdu.type)).toEqual([100, 1, 100]);
  });

  it('a large image fills ASDUs of one type up to 249 octets: 100 single points in 60 + 40, 40 floats in 30 + 10', () => {
    const s = station();
    for (let i = 0; i < 100; i++) s.event(0, sp(10_000 - i, i % 2 === 0));
    for (let i = 0; i < 40; i++) s.event(0, point(13, 20_000 + i, { kind: 'r32_qds', value: i, quality: 0 }));
    const a = s.receive(0, WALL, 'a', octets(GI));
    const sizes = a.flatMap((x) => (x.kind === 'to_connection' ? [x.asdu.length] : []));
    expect(sizes).toEqual([10, 6 + 60 * 4, 6 + 40 * 4, 6 + 30 * 8, 6 + 10 * 8, 10]);
    const data = answers(a).slice(1, -1);
    expect(data.map((x) => [x.asdu.type, x.asdu.objects.length])).toEqual([
      [1, 60],
      [1, 40],
      [13, 30],
      [13, 10],
    ]);
    expect(data.flatMap((x) => x.asdu.objects.map((o) => o.ioa)).slice(0, 3)).toEqual([9901, 9902, 9903]); // ordered by IOA
  });

  it('QOI outside 20-36: COT 7 negative; a cause other than 6 or 8: COT 45; deactivation: COT 9 negative', () => {
    const s = station();
    const qoi = (q: number) => request(100, [{ ioa: 0, element: { kind: 'qoi', qoi: q } }]);
    for (const q of [0, 19, 37, 255])
      expect(hex(onlyAnswer(s.receive(0, WALL, 'a', qoi(q))))).toBe(hex(request(100, [{ ioa: 0, element: { kind: 'qoi', qoi: q } }], { cot: cause(7, true) })));
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('64 01 03 03 01 00 00 00 00 14'))))).toBe('64 01 6d 03 01 00 00 00 00 14');
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('64 01 08 03 01 00 00 00 00 14'))))).toBe('64 01 49 03 01 00 00 00 00 14');
  });

  it('an empty image: ACTCON and ACTTERM only; the answers keep the test bit and originator of the request', () => {
    const r = answers(station().receive(0, WALL, 'a', octets('64 01 86 2a 01 00 00 00 00 14')));
    expect(r.map((x) => [x.asdu.cot, x.asdu.originator])).toEqual([
      [cause(7, false, true), 42],
      [cause(10, false, true), 42],
    ]);
  });

  it('property: any image is answered completely, each point once, ACTCON first, ACTTERM last, every ASDU one type and at most 249 octets', () => {
    const arbPoint = fc.oneof(
      fc
        .record({ ioa: fc.integer({ min: 1, max: 0xffffff }), value: fc.boolean(), group: fc.integer({ min: 0, max: 16 }) })
        .map((p) => sp(p.ioa, p.value, p.group)),
      fc
        .record({ ioa: fc.integer({ min: 1, max: 0xffffff }), value: fc.integer({ min: -32768, max: 32767 }), group: fc.integer({ min: 0, max: 16 }) })
        .map((p) => point(11, p.ioa, { kind: 'sva_qds', value: p.value, quality: 0 }, p.group)),
      fc
        .record({ ioa: fc.integer({ min: 1, max: 0xffffff }), value: fc.integer({ min: 0, max: 0xffffffff }) })
        .map((p) => point(7, p.ioa, { kind: 'bsi_qds', value: p.value, quality: QUALITY.BL }, 1)),
    );
    fc.assert(
      fc.property(fc.array(arbPoint, { maxLength: 400 }), fc.integer({ min: 20, max: 36 }), (points, qoi) => {
        const s = station();
        const image = new Map<number, MonitorPoint>();
        for (const p of points) {
          s.event(0, p);
          image.set(p.ioa, p);
        }
        const a = s.receive(0, WALL, 'a', request(100, [{ ioa: 0, element: { kind: 'qoi', qoi } }]));
        expectWellFormed(a, 'a');
        const r = answers(a);
        expect(r[0]?.asdu.cot.cause).toBe(7);
        expect(r.at(-1)?.asdu.cot.cause).toBe(10);
        const data = r.slice(1, -1).map((x) => x.asdu);
        for (const d of data) {
          expect(d.cot.cause).toBe(qoi);
          expect(d.sq).toBe(false);
          expect(encodeAsdu(d).length).toBeLessThanOrEqual(ASDU_MAX_LENGTH);
        }
        const sent = data.flatMap((d) => d.objects.map((o) => ({ type: d.type, ioa: o.ioa, element: o.element })));
        const want = [...image.values()].filter((p) => qoi === 20 || p.group === qoi - 20);
        expect(sent.map((x) => x.ioa).sort((x, y) => x - y)).toEqual(want.map((p) => p.ioa).sort((x, y) => x - y));
        for (const x of sent) expect(x).toEqual({ type: image.get(x.ioa)?.type, ioa: x.ioa, element: image.get(x.ioa)?.element });
      }),
      { numRuns: 60 },
    );
  });
});

describe('IEC 104 station: common address and broadcast', () => {
  it('a broadcast interrogation is answered once, with the station own address, not 65535', () => {
    const s = station({ asduAddress: 0x0203 });
    s.event(0, sp(100, true));
    const a = s.receive(0, WALL, 'a', octets('64 01 06 03 ff ff 00 00 00 14'));
    expect(a.map((x) => (x.kind === 'to_connection' ? hex(x.asdu) : x.kind))).toEqual([
      '64 01 07 03 03 02 00 00 00 14',
      '01 01 14 03 03 02 64 00 00 01',
      '64 01 0a 03 03 02 00 00 00 14',
    ]);
  });

  it('broadcast counter interrogation and clock sync: one answer each, own address', () => {
    const s = station();
    s.event(0, counter(7, 99));
    const ci = answers(s.receive(0, WALL, 'a', request(101, [{ ioa: 0, element: { kind: 'qcc', request: 5, freeze: 0 } }], { ca: 0xffff })));
    expect(ci.map((x) => [x.asdu.cot.cause, x.asdu.ca])).toEqual([
      [7, 1],
      [37, 1],
      [10, 1],
    ]);
    const cs = s.receive(0, WALL, 'a', request(103, [{ ioa: 0, element: { kind: 'cp56', time: cp56FromEpochMs(WALL) } }], { ca: 0xffff }));
    expect(kinds(cs)).toEqual(['set_clock', 'to_connection']);
    expect(answers(cs)[0]?.asdu.ca).toBe(1);
  });

  it('another common address, or 65535 for a type other than 100, 101, 103: mirrored with COT 46, P/N set', () => {
    const s = station();
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('64 01 06 03 02 00 00 00 00 14'))))).toBe('64 01 6e 03 02 00 00 00 00 14');
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('66 01 05 03 ff ff 64 00 00'))))).toBe('66 01 6e 03 ff ff 64 00 00');
    const sc = s.receive(0, WALL, 'a', octets('2d 01 06 03 ff ff e8 03 00 01'));
    expect(kinds(sc)).toEqual(['to_connection']);
    expect(hex(onlyAnswer(sc))).toBe('2d 01 6e 03 ff ff e8 03 00 01');
  });
});

describe('IEC 104 station: counter interrogation', () => {
  const ci = (request: number, freeze = 0) => octets(`65 01 06 03 01 00 00 00 00 ${(request | (freeze << 6)).toString(16).padStart(2, '0')}`);

  it('RQT 5: every integrated total with COT 37; RQT 1-4: those of the group with COT 38-41; ACTCON first, ACTTERM last', () => {
    const s = station();
    s.event(0, counter(1, 10, 1));
    s.event(0, counter(2, -20, 2));
    s.event(0, counter(3, 30, 0));
    s.event(0, sp(4, true, 1));
    const all = answers(s.receive(0, WALL, 'a', ci(5)));
    expect(all.map((x) => [x.asdu.type, x.asdu.cot.cause, x.asdu.objects.map((o) => o.ioa)])).toEqual([
      [101, 7, [0]],
      [15, 37, [1, 2, 3]],
      [101, 10, [0]],
    ]);
    expect(hex(encodeAsdu((all[1] as { asdu: Parameters<typeof encodeAsdu>[0] }).asdu))).toBe(
      '0f 03 25 03 01 00 01 00 00 0a 00 00 00 00 02 00 00 ec ff ff ff 00 03 00 00 1e 00 00 00 00',
    );
    for (const g of [1, 2, 3, 4]) {
      const r = answers(s.receive(0, WALL, 'a', ci(g)));
      expect(r.map((x) => x.asdu.cot.cause)).toEqual(g <= 2 ? [7, 37 + g, 10] : [7, 10]);
      if (g <= 2) expect(r[1]?.asdu.objects.map((o) => o.ioa)).toEqual([g]);
    }
  });

  it('FRZ 1 (freeze) is confirmed without data; FRZ 2 and 3 (reset) and an undefined RQT are refused with COT 7 P/N', () => {
    const s = station();
    s.event(0, counter(1, 10));
    expect(answers(s.receive(0, WALL, 'a', ci(5, 1))).map((x) => x.asdu.cot)).toEqual([cause(7), cause(10)]);
    for (const [rqt, frz] of [
      [5, 2],
      [5, 3],
      [0, 0],
      [6, 0],
      [63, 0],
    ] as const)
      expect(answers(s.receive(0, WALL, 'a', ci(rqt, frz))).map((x) => x.asdu.cot)).toEqual([cause(7, true)]);
    expect(answers(s.receive(0, WALL, 'a', octets('65 01 08 03 01 00 00 00 00 05'))).map((x) => x.asdu.cot)).toEqual([cause(9, true)]);
    expect(answers(s.receive(0, WALL, 'a', octets('65 01 05 03 01 00 00 00 00 05'))).map((x) => x.asdu.cot)).toEqual([cause(45, true)]);
  });
});

describe('IEC 104 station: read', () => {
  it('the current value with COT 5, to the requester only and without ACTCON', () => {
    const s = station();
    s.event(0, sp(100, false));
    s.event(0, sp(100, true));
    const a = s.receive(0, WALL, 'c', octets('66 01 05 03 01 00 64 00 00'));
    expect(a).toEqual([{ kind: 'to_connection', connection: 'c', asdu: octets('01 01 05 03 01 00 64 00 00 01') }]);
  });

  it('an IOA not in the image: the read mirrored with COT 47, P/N set; a cause other than 5: COT 45', () => {
    const s = station();
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('66 01 05 03 01 00 c8 00 00'))))).toBe('66 01 6f 03 01 00 c8 00 00');
    s.event(0, sp(200, true));
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('66 01 06 03 01 00 c8 00 00'))))).toBe('66 01 6d 03 01 00 c8 00 00');
  });
});

describe('IEC 104 station: clock synchronization', () => {
  const CS = '67 01 06 03 01 00 00 00 00 00 00 1e 0a 4c 05 1a'; // 2026-05-12 10:30:00.000

  it('set_clock with the time, then ACTCON with the time, to the requester only', () => {
    const a = station().receive(0, WALL + 5000, 'a', octets(CS));
    expect(a).toEqual([
      { kind: 'set_clock', epochMs: WALL },
      { kind: 'to_connection', connection: 'a', asdu: octets('67 01 07 03 01 00 00 00 00 00 00 1e 0a 4c 05 1a') },
    ]);
  });

  it('a bad time (month 13, 31 February, marked invalid): COT 7 negative and the clock stays', () => {
    const s = station();
    for (const bad of [
      '67 01 06 03 01 00 00 00 00 00 00 1e 0a 4c 0d 1a', // month 13: the codec's bad_time
      '67 01 06 03 01 00 00 00 00 00 00 1e 0a 1f 02 1a', // 31 February
      '67 01 06 03 01 00 00 00 00 00 00 9e 0a 4c 05 1a', // IV bit of the minute
    ]) {
      const a = s.receive(0, WALL, 'a', octets(bad));
      expect(kinds(a)).toEqual(['to_connection']);
      const out = onlyAnswer(a);
      expect(decodeHeader(out)?.cot).toEqual(cause(7, true));
      expect(hex(out.slice(6))).toBe(hex(octets(bad).slice(6)));
    }
  });

  it('a cause other than activation: COT 45; an IOA other than 0: COT 47', () => {
    const s = station();
    expect(decodeHeader(onlyAnswer(s.receive(0, WALL, 'a', octets('67 01 05 03 01 00 00 00 00 00 00 1e 0a 4c 05 1a'))))?.cot).toEqual(cause(45, true));
    expect(decodeHeader(onlyAnswer(s.receive(0, WALL, 'a', octets('67 01 06 03 01 00 01 00 00 00 00 1e 0a 4c 05 1a'))))?.cot).toEqual(cause(47, true));
  });
});

describe('IEC 104 station: system commands and what a controlled station never receives', () => {
  it('C_TS_TA_1: ACTCON with the counter and time; C_RP_NA_1 QRP 1: ACTCON, QRP 2: negative', () => {
    const s = station();
    const ts = '6b 01 06 03 01 00 00 00 00 34 12 00 00 1e 0a 4c 05 1a';
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets(ts))))).toBe('6b 01 07 03 01 00 00 00 00 34 12 00 00 1e 0a 4c 05 1a');
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('69 01 06 03 01 00 00 00 00 01'))))).toBe('69 01 07 03 01 00 00 00 00 01');
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('69 01 06 03 01 00 00 00 00 02'))))).toBe('69 01 47 03 01 00 00 00 00 02');
  });

  it('a type the unit does not serve: mirrored with COT 44; C_TS_NA_1 (not in 104) too', () => {
    const s = station();
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('6e 01 06 03 01 00 01 00 00 00 00 00'))))).toBe('6e 01 6c 03 01 00 01 00 00 00 00 00');
    expect(hex(onlyAnswer(s.receive(0, WALL, 'a', octets('68 01 06 03 01 00 00 00 00 aa 55'))))).toBe('68 01 6c 03 01 00 00 00 00 aa 55');
  });

  it('monitor types from the control station (1-40 served, 70): COT 44, P/N set, nothing else', () => {
    const s = station();
    for (const t of TYPES.filter((x) => (x.direction === 'monitor' || x.direction === 'system_monitor') && servedType(x.id))) {
      const size = t.size;
      const b = new Uint8Array(9 + size);
      b.set([t.id, 1, 3, 3, 1, 0, 5, 0, 0]);
      if (t.time === 'cp56') b.set([0, 0, 0, 0, 1, 1, 20], 9 + size - 7);
      const a = s.receive(0, WALL, 'a', b);
      expect(kinds(a)).toEqual(['to_connection']);
      expect(decodeHeader(onlyAnswer(a))?.cot).toEqual(cause(44, true));
    }
  });

  it('an ASDU that cannot be trusted closes the connection that sent it', () => {
    const s = station();
    const cases: [string, string][] = [
      ['64 01 06', 'short_asdu'],
      ['64 02 06 03 01 00 00 00 00 14', 'length_mismatch'],
      ['64 00 06 03 01 00', 'bad_count'],
      ['01 ff 14 00 01 00 fe ff ff 01 01', 'length_mismatch'],
      ['01 82 14 00 01 00 ff ff ff 01 01', 'bad_ioa'],
    ];
    for (const [b, code] of cases) expect(s.receive(0, WALL, 'x', octets(b))).toEqual([{ kind: 'close', connection: 'x', code, reason: expect.any(String) }]);
    const long = new Uint8Array(250);
    long.set([1, 1, 3, 0, 1, 0]);
    expect(s.receive(0, WALL, 'x', long)).toMatchObject([{ kind: 'close', code: 'too_long' }]);
  });
});

describe('IEC 104 station: the PLC does not answer', () => {
  it('interrogations and reads send IV and NT, never a stale value as good; back: NT until the PLC reports the point again', () => {
    const s = station();
    s.event(0, sp(1, true));
    s.event(0, point(13, 2, { kind: 'r32_qds', value: 3.5, quality: QUALITY.OV }));
    s.event(0, counter(3, 77));
    expect(s.plcState(1, false)).toEqual([]);
    const gi = answers(s.receive(2, WALL, 'a', octets(GI))).slice(1, -1);
    expect(gi.flatMap((x) => x.asdu.objects.map((o) => o.element))).toEqual([
      { kind: 'siq', value: true, quality: QUALITY.IV | QUALITY.NT },
      { kind: 'r32_qds', value: 3.5, quality: QUALITY.OV | QUALITY.IV | QUALITY.NT },
    ]);
    const ci = answers(s.receive(2, WALL, 'a', octets('65 01 06 03 01 00 00 00 00 05')));
    expect(ci[1]?.asdu.objects[0]?.element).toMatchObject({ value: 77, invalid: true });
    expect(answers(s.receive(2, WALL, 'a', octets('66 01 05 03 01 00 01 00 00')))[0]?.asdu.objects[0]?.element).toEqual({
      kind: 'siq',
      value: true,
      quality: QUALITY.IV | QUALITY.NT,
    });

    s.plcState(3, true);
    const back = () =>
      answers(s.receive(4, WALL, 'a', octets(GI)))
        .slice(1, -1)
        .flatMap((x) => x.asdu.objects.map((o) => o.element));
    expect(back()).toEqual([
      { kind: 'siq', value: true, quality: QUALITY.NT },
      { kind: 'r32_qds', value: 3.5, quality: QUALITY.OV | QUALITY.NT },
    ]);
    // the image read brings point 1 back: it goes out spontaneously as good, point 2 stays not topical
    expect(events(s.refresh(5, [sp(1, false)])).map((e) => e.objects[0]?.element)).toEqual([{ kind: 'siq', value: false, quality: 0 }]);
    expect(back()?.map((e) => ('quality' in e ? e.quality : -1))).toEqual([0, QUALITY.OV | QUALITY.NT]);
    expect(events(s.refresh(6, [sp(1, true)]))).toEqual([]); // a plain image read sends nothing
  });

  it('with wallNow, the outage is sent spontaneously: every image value with IV and NT, time tag wallNow', () => {
    const s = station();
    s.event(0, sp(1, true));
    s.event(0, counter(3, 77));
    const e = events(s.plcState(1, false, WALL + 60_000));
    expect(e.map((x) => [x.type, x.cot.cause, x.objects[0]?.time])).toEqual([
      [30, 3, cp56FromEpochMs(WALL + 60_000)],
      [37, 3, cp56FromEpochMs(WALL + 60_000)],
    ]);
    expect(e[0]?.objects[0]?.element).toEqual({ kind: 'siq', value: true, quality: QUALITY.IV | QUALITY.NT });
    expect(s.plcState(2, false, WALL)).toEqual([]); // once per outage
  });
});

describe('IEC 104 station: known field bugs of other stacks', () => {
  it('ACTCON is never sent after the data', () => {
    const s = station();
    for (let i = 1; i <= 300; i++) s.event(0, sp(i, true));
    const causes = answers(s.receive(0, WALL, 'a', octets(GI))).map((x) => x.asdu.cot.cause);
    expect(causes[0]).toBe(7);
    expect(causes.indexOf(7, 1)).toBe(-1);
    expect(causes.at(-1)).toBe(10);
  });

  it('read, interrogation and clock sync answers go only to the connection that asked, never as group events', () => {
    const s = station();
    s.event(0, sp(1, true));
    for (const req of [GI, '66 01 05 03 01 00 01 00 00', '67 01 06 03 01 00 00 00 00 00 00 1e 0a 4c 05 1a']) {
      const a = s.receive(0, WALL, 'second', octets(req));
      expect(a.filter((x) => x.kind === 'event')).toEqual([]);
      expect(new Set(answers(a).map((x) => x.connection))).toEqual(new Set(['second']));
    }
  });

  it('parsers reading past short VSQ and ASDU lengths: truncations of valid ASDUs close or are answered, never read on', () => {
    const s = station();
    s.event(0, sp(100, true));
    for (const full of [GI, '66 01 05 03 01 00 64 00 00', '2d 01 06 03 01 00 e8 03 00 01', '3a 01 06 03 01 00 e8 03 00 01 00 00 1e 0a 4c 05 1a'])
      for (let n = 0; n < octets(full).length; n++) {
        const a = s.receive(0, WALL, 'a', octets(full).slice(0, n));
        expectWellFormed(a, 'a');
        expect(kinds(a)).toEqual(['close']);
      }
  });

  it('fuzz: any octets from a connection never throw and every action is well formed', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 260 }), { maxLength: 20 }), (asdus) => {
        const s = station();
        s.event(0, sp(1, true));
        let now = 0;
        for (const b of asdus) {
          now += 100;
          expectWellFormed(s.receive(now, WALL, 'f', b), 'f', b);
          expectWellFormed(s.tick(now), 'f');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fuzz: headers of served types with any VSQ, cause, CA and payload never throw; commands reach the PLC only as activations', () => {
    const served = TYPES.filter((t) => servedType(t.id)).map((t) => t.id);
    const arb = fc.record({
      type: fc.constantFrom(...served),
      vsq: fc.integer({ min: 0, max: 255 }),
      cot: fc.integer({ min: 0, max: 255 }),
      ca: fc.constantFrom(1, 2, 0xffff),
      body: fc.uint8Array({ maxLength: 40 }),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 20 }), (list) => {
        const s = station();
        s.event(0, sp(1, true));
        let now = 0;
        for (const x of list) {
          now += 1000;
          const b = Uint8Array.from([x.type, x.vsq, x.cot, 3, x.ca & 0xff, x.ca >> 8, ...x.body]);
          const a = s.receive(now, WALL, 'f', b);
          expectWellFormed(a, 'f', b);
          if (a.some((y) => y.kind === 'plc_command')) expect((x.cot & 0x3f) === COT.activation && (x.cot & 0x80) === 0 && x.ca === 1).toBe(true);
          const seqs = a.flatMap((y) => (y.kind === 'plc_command' ? [y.command.seq] : []));
          for (const seq of seqs) expectWellFormed(s.plcAnswer(now, { seq, kind: 'done' }), 'f');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('IEC 104 station: settings', () => {
  it('from the saved section: asdu_address, originator, the entry, and the acceptance limit from timeout and plc_poll', () => {
    const iec = v.parse(iecSchema, {
      asdu_address: 7,
      originator: 12,
      plc_poll: 200,
      connections: [{}, { timeout: 1500 }],
    });
    expect(stationSettings(iec, 1)).toEqual({ asduAddress: 7, originator: 12, group: 1, confirmTimeout: 6 * 1500 + 2 * 200 });
    expect(() => stationSettings(iec, 2)).toThrow(RangeError);
  });
});

function onlyAnswer(a: ReturnType<Iec104Station<string>['receive']>): Uint8Array {
  const to = a.filter((x) => x.kind === 'to_connection');
  expect(to).toHaveLength(1);
  return (to[0] as { asdu: Uint8Array }).asdu;
}
