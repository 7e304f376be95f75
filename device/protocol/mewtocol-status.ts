// PLC status: the RT reply (mewtocol.md §4.1), the EXRT reply's leading fields (§4.4, [1src]),
// their flag bytes (§4.3) and the CPU type tables (§4.2 RT codes, §4.4 EXRT machine types).
//
//   decodeRtData(data) / encodeRtData(status)  the 16 chars after `$RT`
//   rtCpu(code)      RT CPU type code -> { name, families }; 0x00 = FP7 (it answers RT with zeros
//                    and only the mode set, meaning "use MEWTOCOL7", §4.1), unknown codes -> 'unknown'
//   exrtCpu(code)    EXRT machine type code -> family (the only way to tell FP0R, FP0H, FP-e apart)
//   modeFlags(byte), errorFlags(byte)  the flag bytes as booleans
import { dec, hex, parseDec, parseHex } from './ascii.ts';
import { check, fail, isInt, ok, type Result } from './result.ts';

export type CpuFamily =
  | 'FP7'
  | 'FP0'
  | 'FP0R'
  | 'FP0H'
  | 'FP-e'
  | 'FP-X'
  | 'FP-X0'
  | 'FP-XH'
  | 'FP-Sigma'
  | 'FP2'
  | 'FP2SH'
  | 'FP1'
  | 'FP-M'
  | 'FP3'
  | 'FP-C'
  | 'FP5';

export interface CpuInfo {
  code: number;
  /** Display name: one family, several joined with `/` when the code does not tell them apart, or 'unknown'. */
  name: string;
  families: CpuFamily[];
}

// §4.2 (RT code → families). 0x20 is shared by FP-Sigma, FP-X and FP-XH; 0x42 (FP0 10k) is [?].
const RT_CPU: Readonly<Record<number, CpuFamily[]>> = {
  0: ['FP7'],
  2: ['FP5'],
  3: ['FP3', 'FP-C'],
  4: ['FP1', 'FP-M'],
  5: ['FP0', 'FP1'],
  6: ['FP0', 'FP1'],
  18: ['FP5'],
  19: ['FP3', 'FP-C'],
  32: ['FP-Sigma', 'FP-X', 'FP-XH'],
  66: ['FP0'],
  80: ['FP2'],
  96: ['FP2SH'],
  114: ['FP-X0'],
};

// §4.4 EXRT machine type codes (MNET PlcType). The legacy row (FP1/FP-M/FP3/FP5/FP10…) is too
// ambiguous in the reference to map and is left out.
const EXRT_GROUPS: readonly [CpuFamily, readonly number[]][] = [
  ['FP0', [0x40, 0x41, 0x42]],
  ['FP-Sigma', [0x43, 0x44, 0xe1]],
  ['FP-e', [0x45]],
  ['FP0R', [0x46, 0x47, 0x48, 0x49]],
  ['FP2', [0x50]],
  ['FP2SH', [0x60, 0x62]],
  ['FP-X', [0x70, 0x71, 0x73, 0x74, 0x76, 0x77, 0x7a]],
  ['FP-X0', [0x72, 0x75, 0x7f]],
  ['FP-XH', [0xa0, 0xa1, 0xa4, 0xa5, 0xa7, 0xa8, 0xac, 0xad, 0xae, 0xaf]],
  ['FP0H', [0xb0, 0xb1]],
];
const EXRT_CPU: ReadonlyMap<number, CpuFamily> = new Map(EXRT_GROUPS.flatMap(([f, codes]) => codes.map((c) => [c, f] as const)));

const info = (code: number, families: readonly CpuFamily[] | undefined): CpuInfo =>
  families ? { code, name: families.join('/'), families: [...families] } : { code, name: 'unknown', families: [] };

export const rtCpu = (code: number): CpuInfo => info(code, RT_CPU[code]);
export function exrtCpu(code: number): CpuInfo {
  const f = EXRT_CPU.get(code);
  return info(code, f ? [f] : undefined);
}

/** §4.3 operation mode byte. */
export interface ModeFlags {
  run: boolean; // bit 0: 1 RUN, 0 PROG
  test: boolean;
  breakExecuted: boolean;
  breakEnabled: boolean;
  outputRefresh: boolean;
  stepEnabled: boolean;
  message: boolean;
  remote: boolean; // bit 7
}

/** §4.3 error flag byte (bit 2 "fuse blown" per NMEW, n.a. per GK: [?]). */
export interface ErrorFlags {
  selfDiagnostic: boolean; // bit 0
  powerDip: boolean;
  fuse: boolean;
  unitError: boolean;
  ioVerify: boolean;
  batteryRealTime: boolean;
  batteryHold: boolean;
  operationError: boolean; // bit 7
}

const MODE_BITS = ['run', 'test', 'breakExecuted', 'breakEnabled', 'outputRefresh', 'stepEnabled', 'message', 'remote'] as const;
const ERROR_BITS = ['selfDiagnostic', 'powerDip', 'fuse', 'unitError', 'ioVerify', 'batteryRealTime', 'batteryHold', 'operationError'] as const;

const bits = <K extends string>(names: readonly K[], byte: number) =>
  Object.fromEntries(names.map((n, i) => [n, ((byte >> i) & 1) === 1])) as Record<K, boolean>;

export const modeFlags = (byte: number): ModeFlags => bits(MODE_BITS, byte);
export const errorFlags = (byte: number): ErrorFlags => bits(ERROR_BITS, byte);

/** The RT reply (§4.1): raw fields (what goes on the wire) plus their decoded views. */
export interface RtStatus {
  cpuCode: number; // hex byte
  cpu: CpuInfo;
  /** 2 digits as sent, e.g. "25"; `versionText` "2.5". */
  version: string;
  versionText: string;
  /** Program capacity in K steps, 2 decimal digits (`03` ≈ 2.7k; FP2SH 60k answered `00`). */
  capacityK: number;
  modeByte: number;
  mode: ModeFlags;
  /** Byte 4, usually 0 ("link unit" in MNET). */
  link: number;
  errorByte: number;
  errors: ErrorFlags;
  /** Self-diagnostic error code; on the wire as 4 hex chars with the bytes swapped (`2D00` = 45). */
  selfDiag: number;
  /** Chars after the 16 documented ones (none on the captured replies); kept for logging. */
  extra: string;
}

export type RtRaw = Pick<RtStatus, 'cpuCode' | 'version' | 'capacityK' | 'modeByte' | 'link' | 'errorByte' | 'selfDiag'> & { extra?: string };

/** Builds the full status (decoded views included) from the raw fields. */
export function rtStatus(raw: RtRaw): RtStatus {
  return {
    cpuCode: raw.cpuCode,
    cpu: rtCpu(raw.cpuCode),
    version: raw.version,
    versionText: /^\d\d$/.test(raw.version) ? `${raw.version[0]}.${raw.version[1]}` : raw.version,
    capacityK: raw.capacityK,
    modeByte: raw.modeByte,
    mode: modeFlags(raw.modeByte),
    link: raw.link,
    errorByte: raw.errorByte,
    errors: errorFlags(raw.errorByte),
    selfDiag: raw.selfDiag,
    extra: raw.extra ?? '',
  };
}

const swap16 = (n: number) => ((n & 0xff) << 8) | ((n >> 8) & 0xff);

/** The 16+ chars after `$RT`. */
export function decodeRtData(data: string): Result<RtStatus> {
  if (data.length < 16) return fail('bad_length', `RT data has ${data.length} chars, 16 expected`);
  const cpuCode = parseHex(data.slice(0, 2));
  const version = data.slice(2, 4);
  const capacityK = parseDec(data.slice(4, 6));
  const modeByte = parseHex(data.slice(6, 8));
  const link = parseHex(data.slice(8, 10));
  const errorByte = parseHex(data.slice(10, 12));
  const diag = parseHex(data.slice(12, 16));
  if (
    cpuCode === undefined ||
    capacityK === undefined ||
    modeByte === undefined ||
    link === undefined ||
    errorByte === undefined ||
    diag === undefined ||
    !/^[0-9A-F]{2}$/.test(version)
  )
    return fail('bad_data', `RT data "${data.slice(0, 16)}" is not hex/decimal where expected`);
  return ok(rtStatus({ cpuCode, version, capacityK, modeByte, link, errorByte, selfDiag: swap16(diag), extra: data.slice(16) }));
}

export function encodeRtData(s: RtRaw): string {
  check(
    isInt(s.cpuCode, 0, 255) &&
      isInt(s.capacityK, 0, 99) &&
      isInt(s.modeByte, 0, 255) &&
      isInt(s.link, 0, 255) &&
      isInt(s.errorByte, 0, 255) &&
      isInt(s.selfDiag, 0, 0xffff),
    'RT field out of range',
  );
  check(/^[0-9A-F]{2}$/.test(s.version), `RT version "${s.version}" is not 2 hex digits`);
  return (
    hex(s.cpuCode, 2) +
    s.version +
    dec(s.capacityK, 2) +
    hex(s.modeByte, 2) +
    hex(s.link, 2) +
    hex(s.errorByte, 2) +
    hex(swap16(s.selfDiag), 4) +
    (s.extra ?? '')
  );
}

/**
 * Leading fields of the EXRT reply after `$EX00RT00` (§4.4, single source MNET). Uncertain [?]:
 * whether capacity is decimal like RT (taken as the raw 2 chars here), whether the self-diagnostic
 * code is byte-swapped like RT (assumed), and the meaning of everything after the program count
 * (kept raw in `rest`). The fixed `00` after the machine type is not checked and re-encoded as `00`.
 */
export interface ExrtStatus {
  itemCount: string; // 2 chars, `32` on the captured replies
  machineType: number;
  cpu: CpuInfo;
  capacity: string; // 2 chars after the fixed `00`
  modeByte: number;
  mode: ModeFlags;
  link: number;
  errorByte: number;
  errors: ErrorFlags;
  selfDiag: number;
  version: string; // 2 chars
  hwInfo: string; // 2 chars
  rest: string; // program count and what follows, raw
}

export function decodeExrtData(data: string): Result<ExrtStatus> {
  if (data.length < 22) return fail('bad_length', `EXRT data has ${data.length} chars, at least 22 expected`);
  const machineType = parseHex(data.slice(2, 4));
  const modeByte = parseHex(data.slice(8, 10));
  const link = parseHex(data.slice(10, 12));
  const errorByte = parseHex(data.slice(12, 14));
  const diag = parseHex(data.slice(14, 18));
  if (machineType === undefined || modeByte === undefined || link === undefined || errorByte === undefined || diag === undefined)
    return fail('bad_data', 'EXRT data is not hex where expected');
  return ok({
    itemCount: data.slice(0, 2),
    machineType,
    cpu: exrtCpu(machineType),
    capacity: data.slice(6, 8),
    modeByte,
    mode: modeFlags(modeByte),
    link,
    errorByte,
    errors: errorFlags(errorByte),
    selfDiag: swap16(diag),
    version: data.slice(18, 20),
    hwInfo: data.slice(20, 22),
    rest: data.slice(22),
  });
}

export function encodeExrtData(s: ExrtStatus): string {
  check(
    [s.itemCount, s.capacity, s.version, s.hwInfo].every((f) => f.length === 2),
    'EXRT text fields must be 2 chars each',
  );
  check(
    isInt(s.machineType, 0, 255) && isInt(s.modeByte, 0, 255) && isInt(s.link, 0, 255) && isInt(s.errorByte, 0, 255) && isInt(s.selfDiag, 0, 0xffff),
    'EXRT field out of range',
  );
  return `${s.itemCount + hex(s.machineType, 2)}00${s.capacity}${hex(s.modeByte, 2)}${hex(s.link, 2)}${hex(s.errorByte, 2)}${hex(swap16(s.selfDiag), 4)}${s.version}${s.hwInfo}${s.rest}`;
}
