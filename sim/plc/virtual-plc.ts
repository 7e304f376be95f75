// A virtual PLC: its memory (with RUN/PROG), its station number, how long it takes to answer, and
// the faults a developer can switch on at run time to see how the unit copes:
//   none       answers normally
//   silent     hears nothing and answers nothing (the request is not executed)
//   error      refuses the request with `code`: a MEWTOCOL error code (`!nn`) or a Modbus exception code
//   bad_check  executes and answers, but the answer's check code is wrong (BCC, CRC; on Modbus/TCP,
//              which has none, the transaction id does not match the request)
//   garble     executes and answers, with one byte of the answer corrupted
//   slow       executes and answers `delayMs` later than usual; with `maxDelayMs`, each answer a
//              random delay from delayMs to maxDelayMs later (the answers still leave in order)
// A fault with `count` applies to the next `count` requests only, then the PLC is healthy again.
// The protocol endpoints (endpoint.ts) ask for the fault of each request and count the answers.
import { PlcMemory } from './memory.ts';
import type { CpuModel } from './profiles.ts';

export const FAULT_KINDS = ['none', 'silent', 'error', 'bad_check', 'garble', 'slow'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type Fault =
  | { kind: 'none' }
  | { kind: 'silent' | 'bad_check' | 'garble'; count?: number }
  | { kind: 'error'; code: number; count?: number }
  | { kind: 'slow'; delayMs: number; maxDelayMs?: number; count?: number };

/** A few ms, like the scan time of a small program. */
export const DEFAULT_SCAN_MS = 5;
/** Modbus RTU allows 1–247; MEWTOCOL 1–99 (the endpoint checks the narrower range). */
export const STATION_RANGE = { min: 1, max: 247 } as const;
export const MEWTOCOL_STATION_MAX = 99;

export interface VirtualPlcOptions {
  model: CpuModel;
  station?: number;
  scanMs?: number;
}

export interface PlcDescription {
  model: CpuModel;
  station: number;
  mode: 'RUN' | 'PROG';
  scanMs: number;
  /** the fault set now; `count` = requests it still applies to */
  fault: Fault;
  requests: number;
  answers: number;
  writes: number;
}

const NONE: Fault = { kind: 'none' };

function checkFault(f: Fault): void {
  if (!(FAULT_KINDS as readonly string[]).includes(f.kind)) throw new RangeError(`unknown fault "${f.kind}" (one of ${FAULT_KINDS.join(', ')})`);
  if (f.kind === 'none') return;
  if (f.count !== undefined && !(Number.isInteger(f.count) && f.count >= 1)) throw new RangeError(`fault count ${f.count} is not a whole number ≥ 1`);
  if (f.kind === 'error' && !(Number.isInteger(f.code) && f.code >= 1 && f.code <= 99)) throw new RangeError(`error code ${f.code} not in 1-99`);
  if (f.kind === 'slow' && !(Number.isFinite(f.delayMs) && f.delayMs >= 0)) throw new RangeError(`delay ${f.delayMs} ms is not a duration`);
  if (f.kind === 'slow' && f.maxDelayMs !== undefined && !(Number.isFinite(f.maxDelayMs) && f.maxDelayMs >= f.delayMs))
    throw new RangeError(`longest delay ${f.maxDelayMs} ms is not a duration of at least ${f.delayMs} ms`);
}

export class VirtualPlc {
  readonly memory: PlcMemory;
  private stationNo: number;
  private scan: number;
  private current: Fault = NONE;
  requests = 0;
  answers = 0;

  constructor(opts: VirtualPlcOptions) {
    this.memory = new PlcMemory(opts.model);
    this.stationNo = STATION_RANGE.min;
    this.scan = DEFAULT_SCAN_MS;
    this.station = opts.station ?? 1;
    this.scanMs = opts.scanMs ?? DEFAULT_SCAN_MS;
  }

  get model(): CpuModel {
    return this.memory.profile.model;
  }

  get station(): number {
    return this.stationNo;
  }

  set station(n: number) {
    if (!(Number.isInteger(n) && n >= STATION_RANGE.min && n <= STATION_RANGE.max))
      throw new RangeError(`station ${n} not in ${STATION_RANGE.min}-${STATION_RANGE.max}`);
    this.stationNo = n;
  }

  /** ms between a request fully arrived and the start of the answer */
  get scanMs(): number {
    return this.scan;
  }

  set scanMs(ms: number) {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`scan time ${ms} ms is not a duration`);
    this.scan = ms;
  }

  get fault(): Fault {
    return { ...this.current };
  }

  /** Sets (or with `{ kind: 'none' }` clears) the fault; throws on an impossible one. */
  setFault(f: Fault): void {
    checkFault(f);
    this.current = { ...f };
  }

  /**
   * Counts a request to this PLC and gives the fault for its answer, counting a limited fault down.
   * A request that gets no answer anyway (a Modbus broadcast) is counted but takes no fault.
   */
  request(expectsAnswer = true): Fault {
    this.requests++;
    if (!expectsAnswer || this.current.kind === 'none') return NONE;
    const f = this.current;
    if (f.count !== undefined) this.current = f.count > 1 ? { ...f, count: f.count - 1 } : NONE;
    return f;
  }

  /** Counts an answer that went out. */
  answered(): void {
    this.answers++;
  }

  describe(): PlcDescription {
    return {
      model: this.model,
      station: this.station,
      mode: this.memory.running ? 'RUN' : 'PROG',
      scanMs: this.scanMs,
      fault: this.fault,
      requests: this.requests,
      answers: this.answers,
      writes: this.memory.writes,
    };
  }
}
