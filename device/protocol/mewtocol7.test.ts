import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeMew7Reply,
  decodeMew7Request,
  decodeStrdData,
  encodeMew7Reply,
  encodeMew7Request,
  encodeStrdData,
  type Mew7Request,
} from './mewtocol7-commands.ts';
import {
  crc16Mcrf4xx,
  decodeMew7Frame,
  encodeMew7Frame,
  encodeMew7Message,
  encodeMew7NextRequest,
  type Mew7Message,
  mew7Crc,
  nextMew7FrameNo,
} from './mewtocol7-frame.ts';
import { createMew7StreamDecoder, type Mew7StreamEvent } from './mewtocol7-stream.ts';

// mewtocol.md §5: the captured STRD reply (MNET unit test) and the STRD request
const STRD_REPLY = '>@EEE00$30STRD00070300000453045304530100000000660100';
const STRD_REQUEST = '>@EEE00#30STRD00';

describe('MEWTOCOL7 check code (mewtocol.md §5)', () => {
  it('CRC-16/MCRF4XX vectors', () => {
    expect(mew7Crc(STRD_REPLY)).toBe('A7A5');
    expect(mew7Crc(STRD_REQUEST)).toBe('43F1');
    expect(crc16Mcrf4xx('123456789')).toBe(0x6f91); // the catalogue check value of CRC-16/MCRF4XX
  });

  it('the full STRD request frame', () => {
    expect(encodeMew7Frame({ station: 'EEE', frameNo: 0, marker: '#', text: encodeMew7Request({ cmd: 'STRD' }), more: false })).toBe('>@EEE00#30STRD0043F1\r');
  });
});

describe('MEWTOCOL7 frames', () => {
  it('decodes the captured STRD reply and its FP7 status', () => {
    const f = decodeMew7Frame(`${STRD_REPLY}A7A5\r`);
    expect(f).toEqual({
      ok: true,
      value: { station: 'EEE', frameNo: 0, marker: '$', text: '30STRD00070300000453045304530100000000660100', more: false, checked: true },
    });
    const r = f.ok ? decodeMew7Reply({ cmd: 'STRD' }, f.value.text) : undefined;
    expect(r?.ok && r.value).toMatchObject({
      kind: 'status',
      status: {
        result: '00',
        series: '07',
        model: '03',
        modelName: 'CPS41E',
        cpu: { name: 'FP7' },
        specialOrder: '0000',
        versions: ['0453', '0453', '0453'],
        versionTexts: ['4.53', '4.53', '4.53'],
        modeByte: 1,
        mode: { run: true },
        errorByte: 0,
        selfDiag: 0,
        rest: '00660100',
      },
    });
    if (r?.ok) expect(encodeMew7Reply({ cmd: 'STRD' }, r.value)).toBe('30STRD00070300000453045304530100000000660100');
  });

  it('the manual next-frame request >@EEE01****& and CRC errors', () => {
    expect(encodeMew7NextRequest('EEE', 1, { skipCrc: true })).toBe('>@EEE01****&\r');
    expect(decodeMew7Frame('>@EEE01****&\r')).toEqual({ ok: true, value: { station: 'EEE', frameNo: 1, text: '', more: true, checked: false } });
    expect(decodeMew7Frame(`${STRD_REPLY}A7A6`)).toMatchObject({ ok: false, error: { code: 'crc' } });
    expect(decodeMew7Frame('%01#RT01')).toMatchObject({ ok: false, error: { code: 'format' } });
    expect(decodeMew7Frame('>@0000')).toMatchObject({ ok: false, error: { code: 'bad_station' } });
    expect(nextMew7FrameNo(0xff)).toBe(0);
  });

  it('the manual MMRD example >@EEE00#00MMRDD001G0DT0000000001000****', () => {
    const text = '00MMRDD001G0DT0000000001000';
    expect(decodeMew7Frame(`>@EEE00#${text}****\r`)).toMatchObject({ ok: true, value: { marker: '#', text } });
    expect(decodeMew7Request(text)).toEqual({ ok: true, value: { cmd: 'MMRD', area: 'DT', address: 0, count: 1000 } });
    expect(encodeMew7Request({ cmd: 'MMRD', area: 'DT', address: 0, count: 1000 })).toBe(text);
  });

  it('requests: STRD, MMRD round trip and errors', () => {
    expect(decodeMew7Request('30STRD00')).toEqual({ ok: true, value: { cmd: 'STRD' } });
    expect(decodeMew7Request('00MMRDD001G0XX0000000001000')).toMatchObject({ ok: false, error: { code: 'parameter' } });
    expect(decodeMew7Request('99ABCD')).toMatchObject({ ok: false, error: { code: 'not_supported' } });
    const req = fc.oneof(
      fc.constant<Mew7Request>({ cmd: 'STRD' }),
      fc
        .record({
          area: fc.constantFrom('DT' as const, 'LD' as const, 'WX' as const, 'WY' as const, 'WR' as const, 'WL' as const),
          address: fc.integer({ min: 0, max: 999424 }),
          count: fc.integer({ min: 1, max: 1019 }),
        })
        .map((x) => ({ cmd: 'MMRD' as const, ...x })),
    );
    fc.assert(
      fc.property(req, (r) => {
        expect(decodeMew7Request(encodeMew7Request(r))).toEqual({ ok: true, value: r });
        if (r.cmd === 'MMRD') {
          const words = Array.from({ length: r.count }, (_, i) => (i * 257) & 0xffff);
          expect(decodeMew7Reply(r, encodeMew7Reply(r, { kind: 'words', words }))).toEqual({ ok: true, value: { kind: 'words', words } });
        }
      }),
    );
  });

  it('property: STRD data round-trips', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-F]{30}[0-9A-F]{0,20}$/), (data) => {
        const s = decodeStrdData(data);
        if (!s.ok) throw new Error(s.error.message);
        expect(encodeStrdData(s.value)).toBe(data);
      }),
    );
  });
});

describe('MEWTOCOL7 stream decoder', () => {
  it('delivers the captured reply; multi-frame messages join; the next request numbers one up', () => {
    const d = createMew7StreamDecoder({ skipCrc: true });
    expect(d.push(`xx${STRD_REPLY}A7A5\r`)).toEqual([
      { type: 'error', code: 'garbage', message: '2 byte(s) outside a frame skipped' },
      { type: 'message', message: { kind: 'response', station: 'EEE', frameNo: 0, text: '30STRD00070300000453045304530100000000660100' }, frames: 1 },
    ]);
    const text = `00MMRD${'3412'.repeat(50)}`;
    const frames = encodeMew7Message({ kind: 'response', station: 'EEE', frameNo: 0, text }, { limit: 100 });
    const ev = frames.flatMap((f) => d.push(f));
    expect(ev.filter((e) => e.type === 'continue')[0]).toEqual({
      type: 'continue',
      station: 'EEE',
      frameNo: 0,
      reply: '>@EEE01****&\r',
      opens: { kind: 'response', text: text.slice(0, 86) }, // 100 chars less `>@EEE00`, `$`, CRC, `&`, CR
    });
    expect(ev.at(-1)).toEqual({ type: 'message', message: { kind: 'response', station: 'EEE', frameNo: 0, text }, frames: frames.length });
  });

  it('property: random bytes never throw and the buffer stays bounded', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.stringMatching(/^[>@E0-9#$!*&\r]{0,300}$/)), { maxLength: 20 }), (chunks) => {
        const d = createMew7StreamDecoder({ maxMessageChars: 1000 });
        for (const c of chunks) {
          d.push(c);
          expect(d.buffered()).toBeLessThanOrEqual(4096 + 1000);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: any message through random chunks comes out whole', () => {
    const msg = fc.record({
      kind: fc.constantFrom('command' as const, 'response' as const, 'error' as const),
      station: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.constant('EEE' as const)),
      frameNo: fc.integer({ min: 0, max: 255 }),
      text: fc.stringMatching(/^[0-9A-Z]{0,500}$/),
    });
    fc.assert(
      fc.property(msg, fc.integer({ min: 15, max: 200 }), fc.integer({ min: 1, max: 40 }), (m, limit, cut) => {
        const wire = encodeMew7Message(m as Mew7Message, { limit }).join('');
        const d = createMew7StreamDecoder();
        const ev: Mew7StreamEvent[] = [];
        for (let i = 0; i < wire.length; i += cut) ev.push(...d.push(wire.slice(i, i + cut)));
        expect(ev.filter((e) => e.type === 'error')).toEqual([]);
        expect(ev.filter((e) => e.type === 'message')).toEqual([expect.objectContaining({ message: m })]);
      }),
    );
  });
});
