// What a virtual PLC answers to one MEWTOCOL-COM command (the text after `#`), on its memory:
// the reply text after `$`, or the error code a real PLC gives (mewtocol.md §3: 42 not supported,
// 60 parameter error for an element outside the area, 61 data error for malformed digits).
// Timer/counter set and elapsed values (RS/RK/WS/WK) and T/C contacts are not simulated: the
// virtual PLC runs no program, so it answers 42 for them as a target without that feature would.
import {
  type ContactRef,
  decodeMewRequest,
  encodeMewReply,
  errorFlags,
  exrtCpu,
  MEW_ERR,
  type MewReply,
  type MewRequest,
  modeFlags,
  rtStatus,
} from '../../device/protocol/index.ts';
import { MemoryError, type PlcMemory } from './memory.ts';

export type MewAnswer = { ok: true; text: string } | { ok: false; code: number };

const relay = (c: ContactRef) => {
  if ('index' in c) throw new Unsupported();
  return { area: c.area, bit: c.word * 16 + c.bit };
};

class Unsupported extends Error {}

/** Status byte of RT: bit 7 remote, bit 0 RUN (mewtocol.md §4.3); FP7 answers only the RUN bit (§4.1). */
export function modeByte(plc: PlcMemory): number {
  return plc.profile.model === 'FP7' ? (plc.running ? 0x01 : 0x00) : 0x80 | (plc.running ? 0x01 : 0x00);
}

function reply(plc: PlcMemory, req: MewRequest): MewReply {
  switch (req.cmd) {
    case 'RCS': {
      const r = relay(req.contact);
      return { kind: 'bits', values: plc.readBits(r.area, r.bit, 1) };
    }
    case 'RCP':
      return {
        kind: 'bits',
        values: req.contacts.map((c) => {
          const r = relay(c);
          return plc.readBits(r.area, r.bit, 1)[0]!;
        }),
      };
    case 'WCS': {
      const r = relay(req.contact);
      plc.writeBits(r.area, r.bit, [req.value]);
      return { kind: 'ack' };
    }
    case 'WCP': {
      // every contact is checked before any is written: a refused command changes nothing
      const refs = req.contacts.map((c) => {
        const r = relay(c.contact);
        plc.readBits(r.area, r.bit, 1);
        return r;
      });
      refs.forEach((r, i) => plc.writeBits(r.area, r.bit, [req.contacts[i]!.value]));
      return { kind: 'ack' };
    }
    case 'RCC':
    case 'RD':
      return { kind: 'words', words: plc.readWords(req.area, req.start, req.count) };
    case 'WCC':
    case 'WD':
      plc.writeWords(req.area, req.start, req.words);
      return { kind: 'ack' };
    case 'RT': {
      const p = plc.profile;
      return {
        kind: 'status',
        status: rtStatus({
          cpuCode: parseInt(p.rtCode, 16),
          version: p.version,
          capacityK: Number(p.capacityK),
          modeByte: modeByte(plc),
          link: 0,
          errorByte: 0,
          selfDiag: 0,
        }),
      };
    }
    case 'EXRT': {
      const p = plc.profile;
      if (!p.exrtCode) throw new Unsupported(); // FP7 answers !42 (mewtocol.md §4.4)
      const machineType = parseInt(p.exrtCode, 16);
      const mode = modeByte(plc);
      return {
        kind: 'exstatus',
        status: {
          itemCount: '32',
          machineType,
          cpu: exrtCpu(machineType),
          capacity: p.capacityK,
          modeByte: mode,
          mode: modeFlags(mode),
          link: 0,
          errorByte: 0,
          errors: errorFlags(0),
          selfDiag: 0,
          version: p.version,
          hwInfo: '00',
          rest: '',
        },
      };
    }
    default:
      throw new Unsupported();
  }
}

/** The answer to one command text. */
export function answerMewtocol(plc: PlcMemory, text: string): MewAnswer {
  const req = decodeMewRequest(text);
  if (!req.ok) return { ok: false, code: req.error.mewCode };
  try {
    return { ok: true, text: encodeMewReply(req.value, reply(plc, req.value) as never) };
  } catch (e) {
    if (e instanceof MemoryError) return { ok: false, code: MEW_ERR.PARAMETER };
    if (e instanceof Unsupported) return { ok: false, code: MEW_ERR.NOT_SUPPORTED };
    throw e;
  }
}
