import { describe, expect, it } from 'vitest';
import { asciiToBytes, encodeMew7Message, encodeMewMessage, encodeMewNextRequest, type MewRequest, mewReplyFrames } from '../protocol/index.ts';
import { type AnswerKey, type Dialog, keysOverlap } from './dialog.ts';
import { mew7Dialog, mewDialog, mewForwardDialog } from './mewtocol-dialog.ts';

const RD1 = (start: number): MewRequest => ({ cmd: 'RD', area: 'DT', start, count: 1 });
const reply = (station: number | 'EE', words: number[]) =>
  mewReplyFrames('%', station, { cmd: 'RD', area: 'DT', start: 0, count: words.length }, { kind: 'words', words })[0]!;
const feed = <T>(d: Dialog<T>, text: string) => d.feed(asciiToBytes(text));

describe('MEWTOCOL dialogs: whose answer is it', () => {
  it('two one-word reads of DT have overlapping keys (their answers look alike); other lengths, codes, stations do not', () => {
    const key = (station: 1 | 2 | 'EE', req: MewRequest, header: '%' | '<' = '%') => mewDialog(station, req, header).answerKey as AnswerKey;
    expect(keysOverlap(key(1, RD1(100)), key(1, RD1(200)))).toBe(true);
    expect(keysOverlap(key(1, RD1(100)), key(1, { cmd: 'RD', area: 'DT', start: 100, count: 2 }))).toBe(false);
    expect(keysOverlap(key(1, RD1(100)), key(1, { cmd: 'RCC', area: 'WR', start: 0, count: 1 }))).toBe(false);
    expect(keysOverlap(key(1, RD1(100)), key(2, RD1(100)))).toBe(false);
    expect(keysOverlap(key(1, RD1(100)), key(1, RD1(100), '<'))).toBe(false);
    // EE takes an answer from any station
    expect(keysOverlap(key('EE', RD1(100)), key(2, RD1(100)))).toBe(true);
    // RCS and an RCP of one contact both answer `RC` + one digit
    expect(
      keysOverlap(key(1, { cmd: 'RCS', contact: { area: 'R', word: 0, bit: 1 } }), key(1, { cmd: 'RCP', contacts: [{ area: 'Y', word: 0, bit: 0 }] })),
    ).toBe(true);
  });

  it('resync reads go to the same station and header, each with a key of its own, none overlapping the request', () => {
    const d = mewDialog(1, RD1(100));
    const keys: AnswerKey[] = [];
    for (let n = 0; ; n++) {
      const r = d.resync?.(n);
      if (!r) break;
      expect(String.fromCharCode(...r.request)).toMatch(/^%01#(RT|RDD00000)/);
      keys.push(r.answerKey!);
    }
    expect(keys.length).toBe(28);
    for (const [i, k] of keys.entries()) {
      expect(keys.filter((o) => keysOverlap(o, k))).toHaveLength(1);
      if (i !== 1) expect(keysOverlap(k, d.answerKey!)).toBe(false);
    }
    expect(keysOverlap(keys[1]!, d.answerKey!)).toBe(true); // RD of DT0, one word: the guard skips it for this request
  });

  it('drops and counts answers of another station, code or length, then takes its own in the same chunk', () => {
    const d = mewDialog(1, RD1(100));
    const others = [reply(2, [1]), reply(1, [1, 2]), encodeMewMessage({ kind: 'response', header: '%', station: 1, text: 'WD' })[0]!];
    expect(feed(d, others.join(''))).toEqual({ done: false });
    expect(d.strays?.()).toBe(3);
    expect(feed(d, reply(1, [101]) + reply(1, [5]))).toEqual({ done: true, value: { kind: 'words', words: [101] } });
    expect(d.strays?.()).toBe(4); // the answer after its own is nobody's either
  });

  it('asks for no next frame of a long answer with another code, and is not broken by it', () => {
    const d = mewDialog(1, RD1(100));
    const long = encodeMewMessage({ kind: 'response', header: '%', station: 1, text: `RC${'0100'.repeat(40)}` });
    expect(long.length).toBeGreaterThan(1);
    expect(feed(d, long[0]!)).toEqual({ done: false }); // no `%01**&` for it
    expect(d.strays?.()).toBe(1);
    expect(feed(d, reply(1, [101]))).toEqual({ done: true, value: { kind: 'words', words: [101] } });
    // its own long answer: each next frame asked for
    const own = mewDialog(1, { cmd: 'RD', area: 'DT', start: 0, count: 40 });
    const mine = encodeMewMessage({ kind: 'response', header: '%', station: 1, text: `RD${'0100'.repeat(40)}` });
    expect(feed(own, mine[0]!)).toEqual({ done: false, send: asciiToBytes(encodeMewNextRequest('%', 1)) });
  });

  it('skips noise and counts frames of the other framing (FP7 answers both on one port)', () => {
    const d = mewDialog(1, RD1(100));
    const mew7 = encodeMew7Message({ kind: 'response', station: 1, frameNo: 3, text: '00MMRD6500' })[0]!;
    expect(feed(d, `\x00\xffnoise${mew7}`)).toEqual({ done: false });
    expect(d.strays?.()).toBe(1);
    expect(feed(d, reply(1, [101]))).toMatchObject({ done: true });
    const d7 = mew7Dialog(1, 4, { cmd: 'MMRD', area: 'DT', address: 100, count: 1 }, '00MMRDD001G0DT000000100001');
    expect(feed(d7, `${reply(1, [7])}${mew7}`)).toEqual({ done: false }); // a `%` answer, and frame 03 for frame 04
    expect(d7.strays?.()).toBe(2);
  });

  it('a redirect thread’s dialog checks the same way and passes the one frame on', () => {
    const d = mewForwardDialog(1, RD1(100), '%');
    feed(d, reply(1, [1, 2]));
    expect(d.strays?.()).toBe(1);
    expect(feed(d, reply(1, [101]))).toEqual({ done: true, value: { reply: { kind: 'words', words: [101] }, frame: reply(1, [101]).slice(0, -1) } });
  });
});
