import { describe, expect, it } from 'vitest';
import { decodeMew7Reply, decodeStrdData, encodeMew7Request } from '../../device/protocol/index.ts';
import { PlcMemory } from './memory.ts';
import { answerMewtocol7 } from './mewtocol7-responder.ts';
import { CPU_MODELS } from './profiles.ts';

describe('virtual PLC, MEWTOCOL7', () => {
  it('an FP7 answers STRD as an FP7 CPS41E in RUN, then in PROG', () => {
    const plc = new PlcMemory('FP7');
    const a = answerMewtocol7(plc, encodeMew7Request({ cmd: 'STRD' }));
    expect(a).toEqual({ ok: true, text: '30STRD000703000004530453045301000000' });
    const s = decodeStrdData(a?.ok ? a.text.slice('30STRD'.length) : '');
    expect(s.ok && s.value).toMatchObject({
      series: '07',
      model: '03',
      modelName: 'CPS41E',
      cpu: { name: 'FP7' },
      versionTexts: ['4.53', '4.53', '4.53'],
      modeByte: 1,
      mode: { run: true },
      errorByte: 0,
      selfDiag: 0,
    });
    plc.running = false;
    const prog = answerMewtocol7(plc, '30STRD00');
    const p = prog?.ok ? decodeMew7Reply({ cmd: 'STRD' }, prog.text) : undefined;
    expect(p?.ok && p.value.kind === 'status' && p.value.status.mode.run).toBe(false);
  });

  it('MMRD reads the words of the memory', () => {
    const plc = new PlcMemory('FP7');
    plc.writeWords('DT', 999_420, [0x1234, 0xbeef]);
    plc.writeWords('WR', 3, [7]);
    const req = { cmd: 'MMRD', area: 'DT', address: 999_419, count: 3 } as const;
    const a = answerMewtocol7(plc, encodeMew7Request(req));
    expect(a).toEqual({ ok: true, text: '00MMRD00003412EFBE' });
    expect(decodeMew7Reply(req, (a as { text: string }).text)).toEqual({ ok: true, value: { kind: 'words', words: [0, 0x1234, 0xbeef] } });
    expect(answerMewtocol7(plc, encodeMew7Request({ cmd: 'MMRD', area: 'WR', address: 3, count: 1 }))).toEqual({ ok: true, text: '00MMRD0700' });
  });

  it('answers 60 outside the memory or for an unknown area, 61 for bad digits, 42 for unknown commands', () => {
    const plc = new PlcMemory('FP7');
    expect(answerMewtocol7(plc, encodeMew7Request({ cmd: 'MMRD', area: 'DT', address: 999_424, count: 2 }))).toEqual({ ok: false, code: 60 });
    expect(answerMewtocol7(plc, encodeMew7Request({ cmd: 'MMRD', area: 'WX', address: 512, count: 1 }))).toEqual({ ok: false, code: 60 });
    expect(answerMewtocol7(plc, '00MMRDD001G0XX0000000001000')).toEqual({ ok: false, code: 60 });
    expect(answerMewtocol7(plc, '00MMRDD001G0DT000000000000A')).toEqual({ ok: false, code: 61 });
    expect(answerMewtocol7(plc, '99ABCD')).toEqual({ ok: false, code: 42 });
  });

  it.each(CPU_MODELS.filter((m) => m !== 'FP7').map((m) => [m]))('%s does not speak MEWTOCOL7: no answer at all', (model) => {
    expect(answerMewtocol7(new PlcMemory(model), '30STRD00')).toBeUndefined();
  });
});
