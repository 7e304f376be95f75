// MEWTOCOL-COM (all FP PLCs) and MEWTOCOL7 (FP7) drivers.
//
// Words: DT/LD/FL with RD/WD, WX/WY/WR/WL with RCC/WCC, split into frames by planMewRead/Write.
// Bits: read as the words that hold them (one RCC instead of one RCP per 8 contacts), written
// with WCP, 8 contacts per frame. X is input: writing it is refused before anything is sent.
// Identification (PLC test, spec §5): RT; code 00 means FP7 (mewtocol.md §4.1), answered with the
// MEWTOCOL7 status read STRD for the model; code 20 (FP-Sigma/FP-X/FP-XH) and the FP0 codes are
// refined with EXRT, the only way to tell them apart (§4.4); a PLC that refuses EXRT keeps RT's name.
//
// MEWTOCOL7: reads DT/LD/WX/WY/WR/WL with MMRD (up to 1019 words per frame); FL, bits and every
// write go as MEWTOCOL-COM on the same port, which FP7 answers (§5: MMWT's layout is not public).
import {
  BIT_AREA_WORDS,
  type BitArea,
  type ContactWordArea,
  type DataArea,
  encodeMew7Request,
  MEW_MAX_CONTACTS,
  MEW7_MAX_READ_WORDS,
  type Mew7Area,
  type Mew7Request,
  type Mew7Station,
  type MewHeader,
  type MewRequest,
  type MewStation,
  modeFlags,
  nextMew7FrameNo,
  planMewRead,
  planMewWrite,
  type WordArea,
  type WritableContactWordArea,
  type WritableRelayArea,
} from '../protocol/index.ts';
import { PlcError } from './dialog.ts';
import { bitsOfWords, type PlcDriver, type PlcIdentity, type Run, recordingRun, unsupported } from './driver.ts';
import { mew7Dialog, mewDialog } from './mewtocol-dialog.ts';

const modeOf = (byte: number): 'RUN' | 'PROG' => (modeFlags(byte).run ? 'RUN' : 'PROG');
const EXRT_REFINES = new Set([0x05, 0x06, 0x20, 0x42]);

function planRange<T>(what: () => T): T {
  try {
    return what();
  } catch (e) {
    throw unsupported(e instanceof Error ? e.message : String(e));
  }
}

export class MewtocolDriver implements PlcDriver {
  constructor(
    protected readonly station: MewStation,
    protected readonly header: MewHeader = '%',
  ) {}

  protected ask<Q extends MewRequest>(run: Run, req: Q, idempotent: boolean) {
    return run(() => mewDialog(this.station, req, this.header), idempotent);
  }

  async readWords(run: Run, area: WordArea, start: number, count: number): Promise<number[]> {
    const reqs = planRange(() => planMewRead(area as DataArea | ContactWordArea, start, count, { header: this.header }));
    const out: number[] = [];
    for (const r of reqs) {
      const reply = await this.ask(run, r, true);
      if ('words' in reply) out.push(...reply.words);
    }
    return out;
  }

  async writeWords(run: Run, area: WordArea, start: number, words: readonly number[]): Promise<void> {
    if (area === 'WX') throw unsupported('WX holds inputs: it cannot be written');
    const reqs = planRange(() => planMewWrite(area as DataArea | WritableContactWordArea, start, words, { header: this.header }));
    for (const r of reqs) await this.ask(run, r, false);
  }

  async readBits(run: Run, area: BitArea, index: number, count: number): Promise<boolean[]> {
    const first = index >> 4;
    const words = await this.readWords(run, BIT_AREA_WORDS[area], first, ((index + count - 1) >> 4) - first + 1);
    return bitsOfWords(words, first, index, count);
  }

  async writeBits(run: Run, area: BitArea, index: number, values: readonly boolean[]): Promise<void> {
    if (area === 'X') throw unsupported('X holds inputs: it cannot be written');
    for (let i = 0; i < values.length; i += MEW_MAX_CONTACTS) {
      const contacts = values.slice(i, i + MEW_MAX_CONTACTS).map((value, k) => {
        const b = index + i + k;
        return { contact: { area: area as WritableRelayArea, word: b >> 4, bit: b & 15 }, value };
      });
      await this.ask(run, { cmd: 'WCP', contacts }, false);
    }
  }

  async probe(run: Run): Promise<void> {
    await this.ask(run, { cmd: 'RT' }, true);
  }

  async identify(outer: Run): Promise<PlcIdentity> {
    const rec = recordingRun(outer);
    try {
      const rt = await this.ask(rec.run, { cmd: 'RT' }, true);
      if (rt.kind !== 'status') throw new PlcError('bad_reply', 'RT answered without a status');
      const s = rt.status;
      const base: PlcIdentity = {
        cpu: { name: s.cpu.name, family: s.cpu.families[0] ?? 'unknown' },
        version: s.versionText,
        mode: modeOf(s.modeByte),
        raw: '',
      };
      if (s.cpuCode === 0x00) {
        // FP7 answers RT with zeros: its model comes from MEWTOCOL7's STRD
        const fp7 = await strd(rec.run, 'EEE', 0).catch(() => undefined);
        return { ...base, cpu: { name: 'FP7', family: 'FP7' }, ...fp7, raw: rec.raw() };
      }
      if (EXRT_REFINES.has(s.cpuCode)) {
        const ex = await this.ask(rec.run, { cmd: 'EXRT' }, true).catch((e: unknown) => {
          if (e instanceof PlcError && e.reason === 'plc_error') return undefined; // older CPUs refuse EXRT
          throw e;
        });
        if (ex?.kind === 'exstatus' && ex.status.cpu.name !== 'unknown') {
          return { ...base, cpu: { name: ex.status.cpu.name, family: ex.status.cpu.families[0] ?? 'unknown' }, raw: rec.raw() };
        }
      }
      return {
        ...base,
        raw: rec.raw(),
        ...(s.cpu.name === 'unknown' ? { note: `CPU code ${s.cpuCode.toString(16).padStart(2, '0').toUpperCase()} is not in the table` } : {}),
      };
    } catch (e) {
      if (e instanceof PlcError && !e.raw) throw new PlcError(e.reason, e.message, e.code, rec.raw());
      throw e;
    }
  }
}

async function strd(run: Run, station: Mew7Station, frameNo: number): Promise<Partial<PlcIdentity>> {
  const req: Mew7Request = { cmd: 'STRD' };
  const r = await run(() => mew7Dialog(station, frameNo, req, encodeMew7Request(req)), true);
  if (r.kind !== 'status') throw new PlcError('bad_reply', 'STRD answered without a status');
  const st = r.status;
  return { cpu: { name: st.cpu.name, family: st.cpu.families[0] ?? 'unknown' }, model: st.modelName, version: st.versionTexts[0], mode: modeOf(st.modeByte) };
}

const MEW7_AREAS = new Set<string>(['DT', 'LD', 'WX', 'WY', 'WR', 'WL']);

export class Mewtocol7Driver extends MewtocolDriver {
  private frameNo = 0;
  private readonly station7: Mew7Station;

  constructor(station: MewStation) {
    super(station, '%');
    this.station7 = station === 'EE' ? 'EEE' : station;
  }

  private nextFrame(): number {
    const n = this.frameNo;
    this.frameNo = nextMew7FrameNo(n);
    return n;
  }

  override async readWords(run: Run, area: WordArea, start: number, count: number): Promise<number[]> {
    if (!MEW7_AREAS.has(area)) return super.readWords(run, area, start, count);
    const out: number[] = [];
    for (let at = start; at < start + count; at += MEW7_MAX_READ_WORDS) {
      const req: Mew7Request = { cmd: 'MMRD', area: area as Mew7Area, address: at, count: Math.min(MEW7_MAX_READ_WORDS, start + count - at) };
      const text = planRange(() => encodeMew7Request(req));
      const r = await run(() => mew7Dialog(this.station7, this.nextFrame(), req, text), true);
      if (r.kind === 'words') out.push(...r.words);
    }
    return out;
  }

  override async probe(run: Run): Promise<void> {
    await strd(run, this.station7, this.nextFrame());
  }

  override async identify(outer: Run): Promise<PlcIdentity> {
    const rec = recordingRun(outer);
    try {
      const s = await strd(rec.run, this.station7, this.nextFrame());
      return { cpu: s.cpu ?? { name: 'unknown', family: 'unknown' }, ...s, raw: rec.raw() };
    } catch (e) {
      if (e instanceof PlcError && !e.raw) throw new PlcError(e.reason, e.message, e.code, rec.raw());
      throw e;
    }
  }
}
