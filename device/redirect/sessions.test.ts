import { describe, expect, it } from 'vitest';
import { PlcError } from '../com/dialog.ts';
import type { Link } from '../com/link.ts';
import { asciiToBytes, bcc, encodeMewMessage, encodeMewNextRequest, type MewRequest, mewCommandFrames, mewReplyFrames } from '../protocol/index.ts';
import { mewtocolSession, type SessionDeps } from './sessions.ts';
import { entry } from './testing.ts';

const RD: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 2 };

/**
 * A link whose PLC answers whatever is sent to it with the next of `plcFrames`, at once (in the call,
 * as a link does when the PLC's bytes arrive), and a session in front of it; `sent` is what the
 * client got, `toPlc` what the PLC got.
 */
function session(plcFrames: string[]) {
  const sent: string[] = [];
  const toPlc: string[] = [];
  const text = (b: Uint8Array) => String.fromCharCode(...b);
  // typed as the link's own method: the fake keeps its signature
  const exchangeDialogNow: Link['exchangeDialogNow'] = (make, _idempotent, _user, _station, answered, failed) => {
    const dialog = make();
    toPlc.push(text(dialog.request));
    let next = 0;
    try {
      for (;;) {
        const step = dialog.feed(asciiToBytes(plcFrames[next++] ?? ''));
        if (step.done) return answered(step.value);
        if (!step.send) return failed(new PlcError('no_answer', 'No answer from the PLC')); // the PLC says nothing more: the link times out
        toPlc.push(text(step.send));
      }
    } catch (e) {
      failed(e as PlcError);
    }
  };
  const link = { exchangeDialogNow } as unknown as Link;
  const deps: SessionDeps = {
    rules: { mapping: [entry('DT', 0, 99, 'R/W')], monitoring_cmd: true },
    gateway: false,
    link: () => link,
    send: (b) => {
      sent.push(typeof b === 'string' ? b : text(b));
    },
    user: 'redirect:9094:1',
    counters: { requests: 0, refused: 0, errors: 0 },
    touch: () => {},
    fault: (e) => {
      throw e;
    },
    overflow: () => {},
  };
  const s = mewtocolSession(deps);
  /** the client's frame, then the answers to everything before it */
  const ask = async (frame: string) => {
    s.receive(asciiToBytes(frame));
    await s.settled();
  };
  return { ask, sent, toPlc, counters: deps.counters };
}

/** a reply frame of the PLC with `**` instead of a BCC: valid, but not what the thread would build */
const unchecked = (frame: string) => `${frame.slice(0, -3)}**\r`;

describe('a MEWTOCOL client of a redirect thread', () => {
  it('gets a one-frame answer with its header and station as the PLC sent it, after the full check', async () => {
    const reply = unchecked(mewReplyFrames('%', 'EE', RD, { kind: 'words', words: [0x1234, 0xabcd] })[0]!);
    const s = session([reply]);
    await s.ask(mewCommandFrames('EE', RD)[0]!);
    expect(s.toPlc).toEqual(mewCommandFrames('EE', RD));
    expect(s.sent).toEqual([reply]); // `**` kept: the PLC's own frame
  });

  it('gets the answer built anew when the PLC names its own station, or sends several frames', async () => {
    const own = mewReplyFrames('%', 1, RD, { kind: 'words', words: [7, 8] })[0]!;
    const s = session([own]);
    await s.ask(mewCommandFrames('EE', RD)[0]!);
    expect(s.sent).toEqual(mewReplyFrames('%', 'EE', RD, { kind: 'words', words: [7, 8] }));

    // 60 words: three frames from the PLC, joined by the link's dialog, split again for the client
    const LONG: MewRequest = { cmd: 'RD', area: 'DT', start: 0, count: 60 };
    const words = Array.from({ length: 60 }, (_, i) => i * 257);
    const frames = mewReplyFrames('%', 'EE', LONG, { kind: 'words', words });
    expect(frames.length).toBeGreaterThan(1);
    const multi = session(frames);
    await multi.ask(mewCommandFrames('EE', LONG)[0]!);
    expect(multi.toPlc.slice(1)).toEqual(frames.slice(1).map(() => encodeMewNextRequest('%', 'EE')));
    expect(multi.sent).toEqual([frames[0]]);
    for (let i = 1; i < frames.length; i++) await multi.ask(encodeMewNextRequest('%', 'EE'));
    expect(multi.sent).toEqual(frames);
  });

  it('never passes on an answer that fails the check: a wrong length answers another request, the client gets nothing', async () => {
    const short = encodeMewMessage({ kind: 'response', header: '%', station: 'EE', text: 'RD3412' })[0]!; // one word for two
    const s = session([short]);
    await s.ask(mewCommandFrames('EE', RD)[0]!);
    expect(s.sent).toEqual([]);
    expect(s.counters.errors).toBe(1); // the request's own answer never came
    // and a frame whose BCC is wrong never forms a message
    const badBcc = `${short.slice(0, -3)}${bcc('x')}\r`;
    const t = session([badBcc]);
    await t.ask(mewCommandFrames('EE', RD)[0]!);
    expect(t.sent).toEqual([]);
  });
});
