import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContactRef, decodeMewRequest, encodeMewRequest, type MewRequest, type WritableContact } from './mewtocol-commands.ts';
import { mewCommandFrames, mewErrorFrame, mewReplyFrames } from './mewtocol-exchange.ts';
import { decodeMewReply, encodeMewReply, type MewReply, mewReplyFromMessage, mewReplyShape } from './mewtocol-replies.ts';
import { decodeExrtData, decodeRtData, rtStatus } from './mewtocol-status.ts';

const word = fc.integer({ min: 0, max: 0xffff });
const relay: fc.Arbitrary<ContactRef> = fc.record({
  area: fc.constantFrom('X' as const, 'Y' as const, 'R' as const, 'L' as const),
  word: fc.integer({ min: 0, max: 999 }),
  bit: fc.integer({ min: 0, max: 15 }),
});
const timer: fc.Arbitrary<ContactRef> = fc.record({ area: fc.constantFrom('T' as const, 'C' as const), index: fc.integer({ min: 0, max: 9999 }) });
const contact = fc.oneof(relay, timer);
const writable: fc.Arbitrary<WritableContact> = fc.record({
  area: fc.constantFrom('Y' as const, 'R' as const, 'L' as const),
  word: fc.integer({ min: 0, max: 999 }),
  bit: fc.integer({ min: 0, max: 15 }),
});
const span = (max: number, most = 60) =>
  fc.integer({ min: 1, max: most }).chain((count) => fc.record({ start: fc.integer({ min: 0, max: max - count + 1 }), count: fc.constant(count) }));
const words = (max: number) =>
  fc.array(word, { minLength: 1, maxLength: 60 }).chain((w) => fc.record({ start: fc.integer({ min: 0, max: max - w.length + 1 }), words: fc.constant(w) }));

/** Every request type with random valid parameters. */
const mewRequest: fc.Arbitrary<MewRequest> = fc.oneof(
  contact.map((c) => ({ cmd: 'RCS' as const, contact: c })),
  fc.record({ contact: writable, value: fc.boolean() }).map((x) => ({ cmd: 'WCS' as const, ...x })),
  fc.array(contact, { minLength: 1, maxLength: 8 }).map((contacts) => ({ cmd: 'RCP' as const, contacts })),
  fc.array(fc.record({ contact: writable, value: fc.boolean() }), { minLength: 1, maxLength: 8 }).map((contacts) => ({ cmd: 'WCP' as const, contacts })),
  fc
    .record({ area: fc.constantFrom('WX' as const, 'WY' as const, 'WR' as const, 'WL' as const), s: span(9999) })
    .map(({ area, s }) => ({ cmd: 'RCC' as const, area, ...s })),
  fc.record({ area: fc.constantFrom('WY' as const, 'WR' as const, 'WL' as const), w: words(9999) }).map(({ area, w }) => ({ cmd: 'WCC' as const, area, ...w })),
  fc.record({ area: fc.constantFrom('DT' as const, 'LD' as const, 'FL' as const), s: span(99999) }).map(({ area, s }) => ({ cmd: 'RD' as const, area, ...s })),
  fc.record({ area: fc.constantFrom('DT' as const, 'LD' as const, 'FL' as const), w: words(99999) }).map(({ area, w }) => ({ cmd: 'WD' as const, area, ...w })),
  fc.record({ cmd: fc.constantFrom('RS' as const, 'RK' as const), s: span(9999) }).map(({ cmd, s }) => ({ cmd, ...s })),
  fc.record({ cmd: fc.constantFrom('WS' as const, 'WK' as const), w: words(9999) }).map(({ cmd, w }) => ({ cmd, ...w })),
  fc.constant({ cmd: 'RT' as const }),
  fc.constant({ cmd: 'EXRT' as const }),
);

const rtRaw = fc.record({
  cpuCode: fc.integer({ min: 0, max: 255 }),
  version: fc.stringMatching(/^[0-9A-F]{2}$/),
  capacityK: fc.integer({ min: 0, max: 99 }),
  modeByte: fc.integer({ min: 0, max: 255 }),
  link: fc.integer({ min: 0, max: 255 }),
  errorByte: fc.integer({ min: 0, max: 255 }),
  selfDiag: word,
});

/** A valid reply for a request. */
function replyFor(req: MewRequest): fc.Arbitrary<MewReply> {
  switch (req.cmd) {
    case 'RCS':
      return fc.array(fc.boolean(), { minLength: 1, maxLength: 1 }).map((values) => ({ kind: 'bits', values }));
    case 'RCP':
      return fc.array(fc.boolean(), { minLength: req.contacts.length, maxLength: req.contacts.length }).map((values) => ({ kind: 'bits', values }));
    case 'RCC':
    case 'RD':
    case 'RS':
    case 'RK':
      return fc.array(word, { minLength: req.count, maxLength: req.count }).map((w) => ({ kind: 'words', words: w }));
    case 'RT':
      return rtRaw.map((raw) => ({ kind: 'status', status: rtStatus(raw) }));
    case 'EXRT': // §4.4 layout: count, machine type, 00, capacity, mode, link, errors, self-diag, version, hw info, rest
      return fc.stringMatching(/^[0-9A-F]{4}00[0-9]{2}[0-9A-F]{14}[0-9A-F]{2}[0-9A-F]{0,10}$/).map((data) => {
        const s = decodeExrtData(data);
        if (!s.ok) throw new Error(s.error.message);
        return { kind: 'exstatus', status: s.value };
      });
    default:
      return fc.constant({ kind: 'ack' });
  }
}

describe('MEWTOCOL-COM requests (mewtocol.md §2)', () => {
  it.each<[MewRequest, string]>([
    [{ cmd: 'RCS', contact: { area: 'X', word: 0, bit: 0 } }, 'RCSX0000'],
    [{ cmd: 'RCS', contact: { area: 'X', word: 1, bit: 10 } }, 'RCSX001A'], // X1A → X001A
    [{ cmd: 'RCS', contact: { area: 'T', index: 99 } }, 'RCST0099'],
    [{ cmd: 'WCS', contact: { area: 'Y', word: 0, bit: 1 }, value: true }, 'WCSY00011'],
    [
      {
        cmd: 'RCP',
        contacts: [
          { area: 'Y', word: 10, bit: 15 },
          { area: 'R', word: 100, bit: 10 },
        ],
      },
      'RCP2Y010FR100A',
    ],
    [{ cmd: 'RCC', area: 'WR', start: 0, count: 2 }, 'RCCR00000001'],
    [{ cmd: 'RCC', area: 'WR', start: 9, count: 1 }, 'RCCR00090009'],
    [{ cmd: 'RD', area: 'DT', start: 1105, count: 3 }, 'RDD0110501107'],
    [{ cmd: 'RD', area: 'DT', start: 0, count: 2 }, 'RDD0000000001'],
    [{ cmd: 'WD', area: 'DT', start: 1, words: [0x0005, 0x1507, 0x0900] }, 'WDD0000100003050007150009'],
    [{ cmd: 'WD', area: 'DT', start: 0, words: [100] }, 'WDD00000000006400'],
    [{ cmd: 'RD', area: 'LD', start: 5, count: 1 }, 'RDL0000500005'],
    [{ cmd: 'RD', area: 'FL', start: 5, count: 1 }, 'RDF0000500005'],
    [{ cmd: 'RS', start: 0, count: 2 }, 'RS00000001'],
    [{ cmd: 'WK', start: 3, words: [0x1234] }, 'WK000300033412'],
    [{ cmd: 'RT' }, 'RT'],
    [{ cmd: 'EXRT' }, 'EX00RT00'],
  ])('%j ↔ %s', (req, text) => {
    expect(encodeMewRequest(req)).toBe(text);
    expect(decodeMewRequest(text)).toEqual({ ok: true, value: req });
  });

  it('the real frames of §6 come out of mewCommandFrames', () => {
    expect(mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 1105, count: 3 })).toEqual(['%01#RDD011050110757\r']);
    expect(mewCommandFrames(1, { cmd: 'WD', area: 'DT', start: 1, words: [5, 0x1507, 0x0900] })).toEqual(['%01#WDD00001000030500071500095D\r']);
    expect(mewCommandFrames(1, { cmd: 'RCS', contact: { area: 'X', word: 0, bit: 0 } })).toEqual(['%01#RCSX00001D\r']);
    expect(mewCommandFrames('EE', { cmd: 'RT' })).toEqual(['%EE#RT00\r']);
    expect(mewCommandFrames(1, { cmd: 'EXRT' })).toEqual(['%01#EX00RT001C\r']);
    expect(mewCommandFrames(1, { cmd: 'RD', area: 'DT', start: 0, count: 2 }, { header: '<' })).toEqual(['<01#RDD00000000014D\r']);
  });

  it('decode errors carry the code a PLC answers (§3)', () => {
    const code = (t: string) => {
      const r = decodeMewRequest(t);
      return r.ok ? 'ok' : r.error.mewCode;
    };
    expect(code('XX')).toBe(42); // unknown command
    expect(code('RDD01105')).toBe(41); // too short
    expect(code('RDQ0000000001')).toBe(60); // bad area code
    expect(code('RDD0000A00001')).toBe(61); // non-decimal address
    expect(code('RDD0000500001')).toBe(61); // start after end
    expect(code('WDD000000000012G4')).toBe(61); // non-hex data
    expect(code('WDD0000000001123')).toBe(41); // data length
    expect(code('RCSZ0000')).toBe(60);
    expect(code('WCSX00001')).toBe(60); // inputs cannot be written
    expect(code('WCST00011')).toBe(60);
    expect(code('WCSY00012')).toBe(61);
    expect(code('RCP9Y0000')).toBe(61);
    expect(code('RCP2Y0000')).toBe(41);
    expect(code('WCCX000000001234')).toBe(60);
    expect(code('RTX')).toBe(41);
  });

  it('encoders refuse what the frame cannot carry', () => {
    expect(() => encodeMewRequest({ cmd: 'RD', area: 'DT', start: 99999, count: 2 })).toThrow(RangeError);
    expect(() => encodeMewRequest({ cmd: 'RCS', contact: { area: 'R', word: 1000, bit: 0 } })).toThrow(RangeError);
    expect(() => encodeMewRequest({ cmd: 'RCP', contacts: [] })).toThrow(RangeError);
    expect(() => encodeMewRequest({ cmd: 'WD', area: 'DT', start: 0, words: [0x10000] })).toThrow(RangeError);
  });

  it('property: decode(encode(request)) is the identity for every command type', () => {
    fc.assert(
      fc.property(mewRequest, (req) => {
        expect(decodeMewRequest(encodeMewRequest(req))).toEqual({ ok: true, value: req });
      }),
      { numRuns: 500 },
    );
  });

  it('property: random command text never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^(RC[SPC]|WC[SPC]|RD|WD|R[SKT]|W[SK])[0-9A-Z]{0,40}$/)), (t) => {
        const r = decodeMewRequest(t);
        if (r.ok) expect(decodeMewRequest(encodeMewRequest(r.value))).toEqual(r);
      }),
      { numRuns: 500 },
    );
  });
});

describe('MEWTOCOL-COM replies', () => {
  it('the CNCS read reply: DT1105=0x0063, DT1106=0x3344, DT1107=0x000A (§2.2 low byte first)', () => {
    const req: MewRequest = { cmd: 'RD', area: 'DT', start: 1105, count: 3 };
    expect(decodeMewReply(req, 'RD630044330A00')).toEqual({ ok: true, value: { kind: 'words', words: [0x0063, 0x3344, 0x000a] } });
    expect(mewReplyFrames('%', 1, req, { kind: 'words', words: [0x63, 0x3344, 0x0a] })).toEqual(['%01$RD630044330A0062\r']);
  });

  it('contacts answer RC, writes WC/WD; the cover example %01$RC021', () => {
    const rcs: MewRequest = { cmd: 'RCS', contact: { area: 'X', word: 0, bit: 0 } };
    expect(mewReplyFrames('%', 1, rcs, { kind: 'bits', values: [false] })).toEqual(['%01$RC021\r']);
    expect(mewReplyFrames('%', 1, { cmd: 'WD', area: 'DT', start: 0, words: [1] }, { kind: 'ack' })).toEqual(['%01$WD13\r']);
    expect(mewReplyFrames('%', 1, { cmd: 'WCS', contact: { area: 'Y', word: 0, bit: 1 }, value: true }, { kind: 'ack' })).toEqual(['%01$WC14\r']);
    expect(decodeMewReply(rcs, 'RD0')).toMatchObject({ ok: false, error: { code: 'unexpected_reply' } });
    expect(decodeMewReply({ cmd: 'RD', area: 'DT', start: 0, count: 2 }, 'RD6300')).toMatchObject({ ok: false, error: { code: 'bad_length' } });
  });

  it('RT reply of the captured FP-X', () => {
    const r = decodeMewReply({ cmd: 'RT' }, 'RT2025168000E12D00');
    expect(r.ok && r.value.status).toMatchObject({ cpuCode: 0x20, versionText: '2.5', capacityK: 16, selfDiag: 45 });
  });

  it('error replies become plc_error with the table text', () => {
    const r = mewReplyFromMessage({ cmd: 'RT' }, { kind: 'error', header: '%', station: 1, code: 60 });
    expect(r).toEqual({
      ok: false,
      error: { code: 'plc_error', message: 'PLC error 60: Parameter error: wrong area code or address out of range', mewCode: 60, key: 'parameter_error' },
    });
    expect(mewErrorFrame('%', 1, 40)).toBe('%01!4001\r');
    expect(mewErrorFrame('%', 1, 61)).toBe('%01!6102\r');
  });

  it('property: decode(encode(reply)) is the identity for every command type', () => {
    fc.assert(
      fc.property(
        mewRequest.chain((req) => fc.tuple(fc.constant(req), replyFor(req))),
        ([req, reply]) => {
          expect(decodeMewReply(req, encodeMewReply(req, reply as never))).toEqual({ ok: true, value: reply });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: random reply text never throws', () => {
    fc.assert(
      fc.property(mewRequest, fc.string({ maxLength: 80 }), (req, t) => {
        decodeMewReply(req, t);
        decodeRtData(t);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a reply decodes as the reply to another request exactly when the two have the same shape', () => {
    // a reply names no address: only its code and data length tell requests apart (the link's answer keys)
    fc.assert(
      fc.property(
        mewRequest.chain((req) => fc.tuple(fc.constant(req), replyFor(req))),
        mewRequest,
        ([a, reply], b) => {
          const taken = decodeMewReply(b, encodeMewReply(a, reply as never)).ok;
          // a reply of another shape is never taken (what the link's answer keys rely on); one of the
          // same shape is, unless its data cannot be the other's: the hex words of an RCC read hold
          // digits a contacts read (RCS, RCP: only 0 and 1) refuses
          const wordsAsContacts = a.cmd === 'RCC' && (b.cmd === 'RCS' || b.cmd === 'RCP');
          if (mewReplyShape(a) === mewReplyShape(b)) expect(taken || a.cmd === 'RT' || a.cmd === 'EXRT' || wordsAsContacts).toBe(true);
          else expect(taken).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
    expect(mewReplyShape({ cmd: 'RD', area: 'DT', start: 100, count: 1 })).toBe('RD:4');
    expect(mewReplyShape({ cmd: 'RCP', contacts: [{ area: 'Y', word: 0, bit: 0 }] })).toBe('RC:1');
    expect(mewReplyShape({ cmd: 'WD', area: 'DT', start: 0, words: [1] })).toBe('WD');
  });
});
