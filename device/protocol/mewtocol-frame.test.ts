import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bcc,
  decodeMewFrame,
  encodeMewFrame,
  encodeMewMessage,
  encodeMewNextRequest,
  formatStation,
  MEW_FRAME_LIMIT,
  type MewMessage,
  parseStation,
} from './mewtocol-frame.ts';

// mewtocol.md §6: every BCC vector, recomputed there with python3 and node
const BCC_VECTORS: [string, string][] = [
  ['%01#RCSX0000', '1D'],
  ['%01$RC0', '21'],
  ['%01#RT', '01'],
  ['%01#RDD0110501107', '57'],
  ['%01$RD630044330A00', '62'],
  ['%01#WDD0000100003050007150009', '5D'],
  ['%01$WD', '13'],
  ['%EE$RT2025168000E12D00', '0F'],
  ['%EE$RT2016168100600000', '0A'], // §4.1 FP-XH capture
  ['%01#RDD0000000001', '54'],
  ['%01#WDD00000000006400', '52'],
  ['%01#WCSY00011', '29'],
  ['%01#RCCR00000001', '06'],
  ['%EE#RT', '00'],
  ['%01!40', '01'],
  ['%01!41', '00'],
  ['%01!42', '03'],
  ['%01!60', '03'],
  ['%01!61', '02'],
  ['%01$WC', '14'],
  ['<01#RDD0000000001', '4D'],
  ['%01#RMR', '4A'],
  ['%01#RMP', '48'],
  ['%01#EX00RT00', '1C'],
  ['%EE#EX00RT00', '1D'],
];

describe('BCC (mewtocol.md §1.1, §6)', () => {
  it.each(BCC_VECTORS)('%s → %s', (frame, expected) => {
    expect(bcc(frame)).toBe(expected);
    expect(decodeMewFrame(`${frame + expected}\r`).ok).toBe(true);
  });

  it('the MNET doc example %01$RD0100020010 has a wrong BCC (correct is 15)', () => {
    expect(bcc('%01$RD01000200')).toBe('15');
    const r = decodeMewFrame('%01$RD0100020010\r');
    expect(r.ok ? r.value : r.error).toMatchObject({ code: 'bcc', mewCode: 40 });
  });

  it('the official cover example %01$RC021 (SCR) decodes', () => {
    expect(decodeMewFrame('%01$RC021\r')).toEqual({ ok: true, value: { header: '%', station: 1, marker: '$', text: 'RC0', more: false, checked: true } });
  });
});

describe('frames', () => {
  it('decodes the CNCS real pair', () => {
    expect(decodeMewFrame('%01#RDD011050110757\r')).toEqual({
      ok: true,
      value: { header: '%', station: 1, marker: '#', text: 'RDD0110501107', more: false, checked: true },
    });
    expect(decodeMewFrame('%01$RD630044330A0062\r')).toMatchObject({ ok: true, value: { marker: '$', text: 'RD630044330A00' } });
  });

  it('EE station, error replies, ** instead of a BCC', () => {
    expect(decodeMewFrame('%EE$RT2025168000E12D000F')).toMatchObject({ ok: true, value: { station: 'EE', marker: '$', text: 'RT2025168000E12D00' } });
    expect(decodeMewFrame('%01!4001\r')).toMatchObject({ ok: true, value: { marker: '!', text: '40' } });
    expect(decodeMewFrame('%01#RT**\r')).toMatchObject({ ok: true, value: { text: 'RT', checked: false } });
  });

  it('encodes command frames with the BCC or **', () => {
    expect(encodeMewFrame({ header: '%', station: 1, marker: '#', text: 'RCSX0000', more: false })).toBe('%01#RCSX00001D\r');
    expect(encodeMewFrame({ header: '%', station: 'EE', marker: '#', text: 'RT', more: false }, { skipBcc: true })).toBe('%EE#RT**\r');
    expect(encodeMewFrame({ header: '<', station: 1, marker: '#', text: 'RDD0000000001', more: false })).toBe('<01#RDD00000000014D\r');
  });

  it('next-frame request: header + station + BCC + & + CR (mewtocol.md §1.3)', () => {
    expect(encodeMewNextRequest('%', 1, { skipBcc: true })).toBe('%01**&\r');
    expect(encodeMewNextRequest('%', 1)).toBe(`%01${bcc('%01')}&\r`);
    expect(decodeMewFrame('%01**&\r')).toEqual({ ok: true, value: { header: '%', station: 1, text: '', more: true, checked: false } });
  });

  it('rejects bad headers, stations and short frames with the PLC error codes', () => {
    const err = (s: string) => {
      const r = decodeMewFrame(s);
      return r.ok ? undefined : { code: r.error.code, mewCode: r.error.mewCode };
    };
    expect(err('X01#RT01')).toEqual({ code: 'format', mewCode: 41 });
    expect(err('%00#RT**')).toEqual({ code: 'bad_station', mewCode: 41 });
    expect(err('%AB#RT**')).toEqual({ code: 'bad_station', mewCode: 41 });
    expect(err('%01*')).toEqual({ code: 'format', mewCode: 41 });
    expect(err('%01#RT02')).toEqual({ code: 'bcc', mewCode: 40 });
  });

  it('stations 01-99 and EE', () => {
    expect(formatStation(1)).toBe('01');
    expect(formatStation(99)).toBe('99');
    expect(formatStation('EE')).toBe('EE');
    expect(() => formatStation(0)).toThrow(RangeError);
    expect(() => formatStation(100)).toThrow(RangeError);
    expect(parseStation('00')).toBeUndefined();
    expect(parseStation('FF')).toBeUndefined();
    expect(['01', '09', '10', '99', 'EE'].map(parseStation)).toEqual([1, 9, 10, 99, 'EE']);
    for (const bad of ['1', '001', ' 1', '1 ', '/0', '0:', '1a', 'ee', '+1', '']) expect(parseStation(bad), bad).toBeUndefined();
  });
});

describe('multi-frame messages (mewtocol.md §1.3)', () => {
  it('a reply longer than 118 chars is split: & on all but the last, no $RD after the first', () => {
    const text = `RD${'3412'.repeat(40)}`; // 162 data chars
    const frames = encodeMewMessage({ kind: 'response', header: '%', station: 1, text });
    expect(frames.length).toBe(2);
    expect(frames[0]).toMatch(/^%01\$RD[0-9A-F]+[0-9A-F]{2}&\r$/);
    expect(frames[1]).toMatch(/^%01[0-9A-F]+\r$/);
    for (const f of frames) expect(f.length).toBeLessThanOrEqual(MEW_FRAME_LIMIT['%']);
    expect(frames[0]?.length).toBe(118);
  });

  it('a message that fits is one frame of exactly the limit', () => {
    const text = `RD${'0000'.repeat(27)}`; // the 27-word figure of §1.3
    const frames = encodeMewMessage({ kind: 'response', header: '%', station: 1, text });
    expect(frames).toHaveLength(1);
    expect(frames[0]?.length).toBe(117);
  });

  it('property: frames decode and join back to the message; every frame within the limit', () => {
    const msg = fc.record({
      kind: fc.constantFrom('command' as const, 'response' as const),
      header: fc.constantFrom('%' as const, '<' as const),
      station: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.constant('EE' as const)),
      text: fc.stringMatching(/^[0-9A-Z]{0,600}$/),
    });
    fc.assert(
      fc.property(msg, fc.integer({ min: 8, max: 300 }), fc.boolean(), (m, limit, skipBcc) => {
        const frames = encodeMewMessage(m as MewMessage, { limit, skipBcc });
        let text = '';
        frames.forEach((f, i) => {
          expect(f.length).toBeLessThanOrEqual(limit);
          const r = decodeMewFrame(f);
          if (!r.ok) throw new Error(r.error.message);
          expect(r.value.more).toBe(i < frames.length - 1);
          expect(r.value.marker !== undefined).toBe(i === 0);
          text += r.value.text;
        });
        expect(text).toBe(m.text);
      }),
    );
  });
});
