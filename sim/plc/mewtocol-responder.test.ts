import { describe, expect, it } from 'vitest';
import { decodeExrtData, decodeMewReply, decodeRtData, encodeMewRequest, type MewRequest } from '../../device/protocol/index.ts';
import { PlcMemory } from './memory.ts';
import { answerMewtocol } from './mewtocol-responder.ts';
import { CPU_MODELS } from './profiles.ts';

const ask = (plc: PlcMemory, req: MewRequest) => {
  const a = answerMewtocol(plc, encodeMewRequest(req));
  if (!a.ok) return a;
  const r = decodeMewReply(req, a.text);
  if (!r.ok) throw new Error(r.error.message);
  return { ok: true as const, reply: r.value };
};

describe('virtual PLC, MEWTOCOL-COM', () => {
  it('answers the captured RD example with its memory (mewtocol.md §2.2)', () => {
    const plc = new PlcMemory('FP-X');
    plc.writeWords('DT', 1105, [0x0063, 0x3344, 0x000a]);
    expect(answerMewtocol(plc, 'RDD0110501107')).toEqual({ ok: true, text: 'RD630044330A00' });
  });

  it('writes and reads back data registers, relay words and single relays', () => {
    const plc = new PlcMemory('FP-XH');
    expect(ask(plc, { cmd: 'WD', area: 'DT', start: 65530, words: [1, 2, 3] })).toEqual({ ok: true, reply: { kind: 'ack' } });
    expect(ask(plc, { cmd: 'RD', area: 'DT', start: 65530, count: 3 })).toEqual({ ok: true, reply: { kind: 'words', words: [1, 2, 3] } });
    expect(ask(plc, { cmd: 'WCS', contact: { area: 'R', word: 10, bit: 15 }, value: true })).toMatchObject({ ok: true });
    expect(ask(plc, { cmd: 'RCC', area: 'WR', start: 10, count: 1 })).toEqual({ ok: true, reply: { kind: 'words', words: [0x8000] } });
    expect(ask(plc, { cmd: 'WCC', area: 'WY', start: 0, words: [0b11] })).toMatchObject({ ok: true });
    expect(
      ask(plc, {
        cmd: 'RCP',
        contacts: [
          { area: 'Y', word: 0, bit: 0 },
          { area: 'Y', word: 0, bit: 2 },
          { area: 'R', word: 10, bit: 15 },
        ],
      }),
    ).toEqual({ ok: true, reply: { kind: 'bits', values: [true, false, true] } });
  });

  it('answers 60 outside the area and 61 for malformed digits, changing nothing', () => {
    const plc = new PlcMemory('FP0');
    expect(answerMewtocol(plc, 'RDD0165901660')).toEqual({ ok: false, code: 60 }); // FP0 has DT0-DT1659
    expect(
      ask(plc, {
        cmd: 'WCP',
        contacts: [
          { contact: { area: 'R', word: 0, bit: 0 }, value: true },
          { contact: { area: 'R', word: 99, bit: 0 }, value: true },
        ],
      }),
    ).toEqual({ ok: false, code: 60 });
    expect(plc.readBits('R', 0, 1)).toEqual([false]);
    expect(answerMewtocol(plc, 'RDD0A00000001').ok).toBe(false);
    expect(answerMewtocol(plc, 'ZZ')).toEqual({ ok: false, code: 42 });
  });

  it.each(CPU_MODELS.map((m) => [m]))('%s identifies itself in RT (and EXRT where it has one)', (model) => {
    const plc = new PlcMemory(model);
    const rt = answerMewtocol(plc, 'RT');
    expect(rt.ok).toBe(true);
    const status = decodeRtData((rt as { text: string }).text.slice(2));
    expect(status.ok && status.value.mode.run).toBe(true);
    const ex = answerMewtocol(plc, 'EX00RT00');
    if (model === 'FP7') {
      expect(ex).toEqual({ ok: false, code: 42 });
      expect((rt as { text: string }).text).toBe('RT0000000100000000'); // the captured FP7 reply (mewtocol.md §4.1)
    } else {
      const d = decodeExrtData((ex as { text: string }).text.slice('EX00RT00'.length));
      expect(d.ok && d.value.cpu.name).toBe(model);
    }
    plc.running = false;
    const prog = decodeRtData((answerMewtocol(plc, 'RT') as { text: string }).text.slice(2));
    expect(prog.ok && prog.value.mode.run).toBe(false);
  });
});
