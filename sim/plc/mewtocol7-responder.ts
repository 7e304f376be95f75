// What a virtual FP7 answers to one MEWTOCOL7 command (the text after `#`, mewtocol.md §5), on its
// memory: the reply text after `$`, or an error code as MEWTOCOL-COM uses them (§3: 42 unknown
// command, 60 outside the memory or unknown area, 61 malformed address or count).
//   STRD  series `07` (FP7), the profile's FP7 model code and versions, the RUN/PROG byte as RT
//         sends it, error flags 00, self-diagnostic 0, no SD-card tail.
//   MMRD  words of DT, LD, WX, WY, WR or WL.
// Only FP7 speaks MEWTOCOL7: for every other model there is no answer at all (undefined), as a
// classic PLC ignores `>` frames.
import { decodeMew7Request, decodeStrdData, encodeMew7Reply, encodeStrdData, MEW_ERR, type Mew7Request, type StrdStatus } from '../../device/protocol/index.ts';
import { MemoryError, type PlcMemory } from './memory.ts';
import { type MewAnswer, modeByte } from './mewtocol-responder.ts';

const DECODE_ERROR: Readonly<Record<string, number>> = { parameter: MEW_ERR.PARAMETER, data: MEW_ERR.DATA, not_supported: MEW_ERR.NOT_SUPPORTED };

/** The STRD status of an FP7, through the codec (which also names the model). */
export function strdStatus(plc: PlcMemory): StrdStatus {
  const p = plc.profile;
  if (!p.fp7Model || !p.fp7Versions) throw new RangeError(`${p.model} has no MEWTOCOL7 status`);
  const data = encodeStrdData({
    result: '00',
    series: '07',
    model: p.fp7Model,
    specialOrder: '0000',
    versions: [...p.fp7Versions],
    modeByte: modeByte(plc),
    errorByte: 0,
    selfDiag: 0,
    rest: '',
  });
  const status = decodeStrdData(data);
  if (!status.ok) throw new RangeError(status.error.message);
  return status.value;
}

function reply(plc: PlcMemory, req: Mew7Request): string {
  if (req.cmd === 'STRD') return encodeMew7Reply(req, { kind: 'status', status: strdStatus(plc) });
  return encodeMew7Reply(req, { kind: 'words', words: plc.readWords(req.area, req.address, req.count) });
}

/** The answer to one MEWTOCOL7 command text; undefined when the model does not speak MEWTOCOL7. */
export function answerMewtocol7(plc: PlcMemory, text: string): MewAnswer | undefined {
  if (!plc.profile.mewtocol7) return undefined;
  const req = decodeMew7Request(text);
  if (!req.ok) return { ok: false, code: DECODE_ERROR[req.error.code] ?? MEW_ERR.FORMAT };
  try {
    return { ok: true, text: reply(plc, req.value) };
  } catch (e) {
    if (e instanceof MemoryError) return { ok: false, code: MEW_ERR.PARAMETER };
    throw e;
  }
}
