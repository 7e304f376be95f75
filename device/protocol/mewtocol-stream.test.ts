import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiToBytes } from './ascii.ts';
import { encodeMewMessage, encodeMewNextRequest, type MewMessage } from './mewtocol-frame.ts';
import { createMewStreamDecoder, type MewStreamEvent } from './mewtocol-stream.ts';

const feed = (chunks: (string | Uint8Array)[]) => {
  const d = createMewStreamDecoder();
  return chunks.flatMap((c) => d.push(c));
};
const types = (events: MewStreamEvent[]) => events.map((e) => (e.type === 'error' ? `error:${e.code}` : e.type));

describe('MEWTOCOL-COM stream decoder', () => {
  it('delivers the real captured frames (mewtocol.md §6) as messages, also byte by byte', () => {
    const wire = '%01#RDD011050110757\r%01$RD630044330A0062\r%EE$RT2025168000E12D000F\r%01!4001\r';
    const expected = [
      { kind: 'command', header: '%', station: 1, text: 'RDD0110501107' },
      { kind: 'response', header: '%', station: 1, text: 'RD630044330A00' },
      { kind: 'response', header: '%', station: 'EE', text: 'RT2025168000E12D00' },
      { kind: 'error', header: '%', station: 1, code: 40 },
    ];
    const whole = feed([wire]);
    expect(whole.map((e) => (e.type === 'message' ? e.message : e))).toEqual(expected);
    const bytes = feed([...asciiToBytes(wire)].map((b) => Uint8Array.of(b)));
    expect(bytes).toEqual(whole);
  });

  it('skips noise before a header and reports it once; a header inside a frame restarts', () => {
    const ev = feed(['\x00\xffzz%01#RT01\r', 'junk%01#R%01#RT01\r']);
    expect(types(ev)).toEqual(['error:garbage', 'message', 'error:garbage', 'error:truncated', 'message']);
  });

  it('ignores CRLF line ends; reports BCC errors with what the PLC answers (40) and the station', () => {
    const ev = feed(['%01#RT01\r\n%02#RT99\r']);
    expect(ev[0]).toMatchObject({ type: 'message' });
    expect(ev[1]).toMatchObject({ type: 'error', code: 'bcc', mewCode: 40, header: '%', station: 2 });
  });

  it('a % frame longer than 118 chars is dropped (frame over, 27); < frames may be longer', () => {
    const long = `%01#WDD00000000${'0'.repeat(200)}**\r`;
    expect(feed([long])).toEqual([expect.objectContaining({ type: 'error', code: 'too_long', mewCode: 27 })]);
    expect(types(feed([`<${long.slice(1)}`]))).toEqual(['message']);
  });

  it('multi-frame reply: continue with the next-frame request, then one joined message', () => {
    const text = `RD${'3412'.repeat(60)}`;
    const frames = encodeMewMessage({ kind: 'response', header: '%', station: 1, text });
    expect(frames.length).toBe(3);
    const d = createMewStreamDecoder({ skipBcc: true });
    // the first frame tells what it opens; the later ones do not
    expect(d.push(frames[0] as string)).toEqual([
      { type: 'continue', header: '%', station: 1, reply: '%01**&\r', opens: { marker: '$', text: text.slice(0, 110) } }, // 118 chars less header, station, `$`, BCC, `&`, CR
    ]);
    expect(d.push(frames[1] as string)).toEqual([{ type: 'continue', header: '%', station: 1, reply: '%01**&\r' }]);
    expect(d.push(frames[2] as string)).toEqual([{ type: 'message', message: { kind: 'response', header: '%', station: 1, text }, frames: 3 }]);
  });

  it('a next-frame request from the peer is a `next` event', () => {
    expect(feed([encodeMewNextRequest('%', 5), '%05**&\r'])).toEqual([
      { type: 'next', header: '%', station: 5 },
      { type: 'next', header: '%', station: 5 },
    ]);
  });

  it('procedure errors (43): continuation without start, new message before the last frame, other station', () => {
    expect(feed(['%01123401\r'.replace('01\r', '**\r')])).toEqual([expect.objectContaining({ code: 'procedure', mewCode: 43 })]);
    const [a, b] = encodeMewMessage({ kind: 'response', header: '%', station: 1, text: `RD${'0'.repeat(200)}` });
    expect(types(feed([a as string, '%01#RT01\r']))).toEqual(['continue', 'error:procedure', 'message']);
    expect(types(feed([a as string, `${(b as string).replace('%01', '%02').slice(0, -3)}**\r`]))).toEqual(['continue', 'error:procedure']);
  });

  it('reset() drops a partial frame and an unfinished message', () => {
    const d = createMewStreamDecoder();
    const [a] = encodeMewMessage({ kind: 'response', header: '%', station: 1, text: `RD${'0'.repeat(200)}` });
    d.push(a as string);
    d.push('%01#R');
    expect(d.buffered()).toBeGreaterThan(0);
    expect(types(d.reset())).toEqual(['error:truncated', 'error:truncated']);
    expect(d.buffered()).toBe(0);
  });

  it('caps an assembled message at maxMessageChars', () => {
    const d = createMewStreamDecoder({ maxMessageChars: 150 });
    const frames = encodeMewMessage({ kind: 'response', header: '%', station: 1, text: `RD${'0'.repeat(400)}` });
    const ev = frames.flatMap((f) => d.push(f));
    expect(types(ev)).toContain('error:too_long');
    expect(types(ev)).not.toContain('message');
  });

  it('property: random bytes never throw, always end, and the buffer stays bounded', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 20 }), (chunks) => {
        const d = createMewStreamDecoder();
        for (const c of chunks) {
          const ev = d.push(c);
          for (const e of ev) expect(['message', 'continue', 'next', 'error']).toContain(e.type);
          expect(d.buffered()).toBeLessThanOrEqual(2048 + 65536);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: frame-like noise (headers, CR, hex) never throws', () => {
    const ch = fc.constantFrom('%', '<', '\r', '&', '#', '$', '!', '*', '0', '1', 'E', 'R', 'D', 'A', 'F');
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 2000 }), (chars) => {
        const d = createMewStreamDecoder({ maxMessageChars: 500 });
        d.push(chars.join(''));
        expect(d.buffered()).toBeLessThanOrEqual(2048 + 500);
      }),
      { numRuns: 300 },
    );
  });

  it('a char beyond latin1 in text is a bad char, as the byte 0xFF is, and the next frame still reads', () => {
    const good = encodeMewMessage({ kind: 'command', header: '%', station: 1, text: 'RDD0000000001' })[0]!;
    const fromText = createMewStreamDecoder().push(`%01#RD\u20ac1\r${good}`);
    const fromBytes = createMewStreamDecoder().push(Uint8Array.from(`%01#RD\xff1\r${good}`, (c) => c.charCodeAt(0)));
    expect(types(fromText)).toEqual(['error:bad_char', 'message']);
    expect(fromText).toEqual(fromBytes);
  });

  it('a frame of exactly the limit is read and one char more is too long, from bytes as from chars', () => {
    const ok = encodeMewMessage({ kind: 'command', header: '%', station: 1, text: `RDD${'0'.repeat(30)}` })[0]!;
    const limit = ok.length;
    const over = encodeMewMessage({ kind: 'command', header: '%', station: 1, text: `RDD${'0'.repeat(31)}` })[0]!;
    for (const wire of [ok, over]) {
      const byBytes = createMewStreamDecoder({ limits: { '%': limit } }).push(new TextEncoder().encode(wire));
      const byChar = createMewStreamDecoder({ limits: { '%': limit } });
      expect(byBytes).toEqual([...wire].flatMap((c) => byChar.push(c)));
      expect(types(byBytes)).toEqual([wire === ok ? 'message' : 'error:too_long']);
    }
  });

  it('property: bytes cut into chunks decode exactly as the same chars pushed one at a time', () => {
    // bytes go through the framer's run-at-a-time path, single chars through its per-char path
    // mostly frame text, so frames reach the 40-char limit as often as they end before it
    const ch = fc.oneof(
      { arbitrary: fc.constantFrom(0x30, 0x31, 0x45, 0x52, 0x44, 0x41, 0x46, 0x26, 0x2a), weight: 40 },
      { arbitrary: fc.constantFrom(0x25, 0x3c, 0x0d, 0x0a, 0x23, 0x24, 0x21, 0x00, 0x7f, 0xc3), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 3000 }), fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), (codes, cuts) => {
        const bytes = Uint8Array.from(codes);
        const byRuns = createMewStreamDecoder({ limits: { '%': 40 }, maxMessageChars: 400 });
        const byChar = createMewStreamDecoder({ limits: { '%': 40 }, maxMessageChars: 400 });
        const a: MewStreamEvent[] = [];
        for (let at = 0, i = 0; at < bytes.length; at += cuts[i++ % cuts.length]!) a.push(...byRuns.push(bytes.subarray(at, at + cuts[i % cuts.length]!)));
        const b = codes.flatMap((c) => byChar.push(String.fromCharCode(c)));
        const merged = (ev: MewStreamEvent[]) => ev.filter((e) => !(e.type === 'error' && e.code === 'garbage'));
        expect(merged(a)).toEqual(merged(b));
        expect(byRuns.buffered()).toBe(byChar.buffered());
      }),
      { numRuns: 300 },
    );
  });

  it('property: any message, split into frames and cut into random chunks, comes out whole', () => {
    const msg = fc.oneof(
      fc.record({
        kind: fc.constantFrom('command' as const, 'response' as const),
        header: fc.constantFrom('%' as const, '<' as const),
        station: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.constant('EE' as const)),
        text: fc.stringMatching(/^[0-9A-Z]{0,700}$/),
      }),
      fc.record({
        kind: fc.constant('error' as const),
        header: fc.constantFrom('%' as const, '<' as const),
        station: fc.integer({ min: 1, max: 99 }),
        code: fc.integer({ min: 0, max: 99 }),
      }),
    );
    fc.assert(
      fc.property(msg, fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }), (m, cuts) => {
        const wire = encodeMewMessage(m as MewMessage).join('');
        const d = createMewStreamDecoder();
        const ev: MewStreamEvent[] = [];
        let at = 0;
        for (let i = 0; at < wire.length; i++) {
          const n = cuts[i % cuts.length] as number;
          ev.push(...d.push(wire.slice(at, at + n)));
          at += n;
        }
        const messages = ev.filter((e) => e.type === 'message');
        expect(ev.filter((e) => e.type === 'error')).toEqual([]);
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ message: m });
      }),
    );
  });
});
