import { describe, expect, it } from 'vitest';
import type { ByteChannel } from '../../hw/types.ts';
import { asciiToBytes, type MewRequest, mewCommandFrames, mewReplyFrames } from '../protocol/index.ts';
import { type ChannelIo, type Dialog, PlcError, RawLog, startDialog } from './dialog.ts';
import { mewDialog } from './mewtocol-dialog.ts';
import { Abort } from './queue.ts';

const RD: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 3 };
const REPLY = mewReplyFrames('%', 1, RD, { kind: 'words', words: [1, 2, 0xabcd] })[0]!;

/** A channel whose data comes from the test, read into one buffer again and again (as a channel may). */
function fakeIo(over: Partial<ByteChannel> = {}) {
  let receiver: ((b: Uint8Array) => void) | undefined;
  const written: string[] = [];
  const buf = new Uint8Array(64);
  const io: ChannelIo = {
    channel: {
      write: (b) => written.push(String.fromCharCode(...b)),
      onData: () => {},
      onClose: () => {},
      close: async () => {},
      isOpen: true,
      ...over,
    },
    setReceiver: (fn) => {
      receiver = fn;
    },
    sent: () => {},
  };
  /** delivers `text` through the shared buffer, then overwrites the buffer */
  const arrive = (text: string) => {
    buf.set(asciiToBytes(text));
    receiver?.(buf.subarray(0, text.length));
    buf.fill(0x3f);
  };
  return { io, written, arrive, receiving: () => receiver !== undefined };
}

describe('a dialog on a channel (startDialog)', () => {
  it('calls back with the answer in the call that delivered its last byte, from copies of reused buffers', () => {
    const { io, written, arrive, receiving } = fakeIo();
    const events: unknown[] = [];
    const dialog = mewDialog(1, RD);
    startDialog(
      io,
      dialog,
      new Abort(),
      (v) => events.push(v),
      (e) => events.push(e),
    );
    expect(written).toEqual(mewCommandFrames(1, RD));
    arrive(REPLY.slice(0, 9)); // the buffer is overwritten after each call
    expect(events).toEqual([]);
    arrive(REPLY.slice(9));
    expect(events).toEqual([{ kind: 'words', words: [1, 2, 0xabcd] }]);
    expect(receiving()).toBe(false);
    expect(dialog.raw()).toBe(`${REPLY.slice(0, -1)}⏎`);
  });

  it('fails once on an unreadable answer and once when given up, with what came so far', () => {
    const bad = fakeIo();
    const failures: unknown[] = [];
    startDialog(
      bad.io,
      mewDialog(1, RD),
      new Abort(),
      () => failures.push('answered'),
      (e) => failures.push(e),
    );
    bad.arrive(`${REPLY.slice(0, -3)}00\r`); // a wrong BCC
    bad.arrive(REPLY);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ reason: 'bad_reply' });

    const silent = fakeIo();
    const abort = new Abort();
    const given: unknown[] = [];
    startDialog(
      silent.io,
      mewDialog(1, RD),
      abort,
      () => given.push('answered'),
      (e) => given.push(e),
    );
    silent.arrive('%01$R');
    abort.abort();
    silent.arrive(REPLY.slice(5));
    expect(given).toHaveLength(1);
    expect(given[0]).toBeInstanceOf(PlcError);
    expect(given[0]).toMatchObject({ reason: 'no_answer', raw: '%01$R' });
  });

  it('a write that throws fails the dialog instead of escaping, and leaves no receiver', () => {
    const { io, receiving } = fakeIo({
      write: () => {
        throw new Error('EPIPE');
      },
    });
    const failures: unknown[] = [];
    const dialog: Dialog<number> = { request: new Uint8Array([1]), raw: () => '', feed: () => ({ done: true, value: 1 }) };
    startDialog(
      io,
      dialog,
      new Abort(),
      () => failures.push('answered'),
      (e) => failures.push(e),
    );
    expect(failures).toEqual([new Error('EPIPE')]);
    expect(receiving()).toBe(false);
  });
});

describe('the raw log of a dialog', () => {
  it('keeps every byte value as it came, bounded, from bytes or text', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const log = new RawLog(false, 300);
    log.add(all.subarray(10)); // a view at an offset
    log.add('ABC');
    log.add(all); // over the bound: cut at 300
    const hex = log.text().split(' ');
    expect(hex).toHaveLength(300);
    expect(hex.slice(0, 3)).toEqual(['0a', '0b', '0c']);
    expect(hex.slice(244, 250)).toEqual(['fe', 'ff', '41', '42', '43', '00']);
    expect(hex.at(-1)).toBe('32');
  });
});
