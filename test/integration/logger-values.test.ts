// The data logger end to end, values (spec §3 Data logger: log data types 0–15, endianness, scaling,
// value kinds; the CSV format contract): a daemon reads two virtual FP-XH PLCs on one RS485 line
// (a socat pseudo-terminal opened through `serialport`), and the CSV files on the internal volume
// hold exactly the text expected for the PLC memory the test put there. Every data type in all four
// byte orders, scaled points, difference and average, X/Y/R bits, a point on the second station and
// a point whose read fails; then the separators semicolon with decimal comma, slash and tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endian, encodeValue } from '../../device/logger/values.ts';
import { ENDIANS, LOG_TYPES, type LogRecord, type LogType, typeWords } from '../../device/model/sections/logfile.ts';
import { FakeClock } from '../support/daemon.ts';
import { crlf, csvFiles, fileIs, local, logFile, type PlcLine, type Rig, record, requestsAfter, saveLog, startLine, startRig } from './logger-rig.ts';

const T0 = local(2026, 3, 2, 10, 0, 0);
const clock = new FakeClock(T0);
let line: PlcLine;
let rig: Rig;

beforeAll(async () => {
  line = await startLine([1, 2]);
  rig = await startRig(line, { clock });
});
afterAll(async () => {
  await rig?.stop();
  await line?.close();
});

// one value of each log data type (the index is the type code) and the text its column must hold
const SAMPLES: { value: number | bigint | string; decimal: number; text: string }[] = [
  { value: -1234, decimal: 0, text: '-1234' }, // int
  { value: 65000, decimal: 0, text: '65000' }, // uint
  { value: 0xbeef, decimal: 0, text: 'BEEF' }, // hex: 4 hex digits
  { value: 0x00a5, decimal: 0, text: '0000000010100101' }, // bin: 16 binary digits
  { value: -123456789, decimal: 0, text: '-123456789' }, // dint
  { value: 4000000000, decimal: 0, text: '4000000000' }, // udint
  { value: 0xdeadbeef, decimal: 0, text: 'DEADBEEF' }, // hex32
  { value: -273.15, decimal: 2, text: '-273.15' }, // real: the float's shortest decimal, 2 places
  { value: 12345.678, decimal: 3, text: '1.235E+04' }, // realex: exponent, half away from zero
  { value: -9007199254740993n, decimal: 0, text: '-9007199254740993' }, // int64: exact beyond 2^53
  { value: 18446744073709551615n, decimal: 0, text: '18446744073709551615' }, // uint64
  { value: 'OK', decimal: 0, text: 'OK' }, // ascii
  { value: '2024-02-29 13:45:30', decimal: 0, text: '2024-02-29 13:45:30' }, // dt: seconds since 2001
  { value: 'pump "A", on', decimal: 0, text: '"pump ""A"", on"' }, // string: quoted, quotes doubled
  { value: 3.141592653589793, decimal: 6, text: '3.141593' }, // lreal
  { value: -0.000123, decimal: 2, text: '-1.23E-04' }, // lrealex
];
const BASE: Record<Endian, number> = { little: 1000, big: 1100, middle: 1200, mixed: 1300 };

/** Every type in every byte order: the words put into DT, and the records reading them. */
function typedPoints(): LogRecord[] {
  const out: LogRecord[] = [];
  for (const endian of ENDIANS) {
    let at = BASE[endian];
    SAMPLES.forEach((s, type) => {
      line.plcs.get(1)!.memory.writeWords('DT', at, encodeValue(type as LogType, s.value, endian));
      out.push(record({ name: `${LOG_TYPES[type]}_${endian}`, area: 1, reg_addr: String(at), type: type as LogType, endian, decimal: s.decimal }));
      at += typeWords(type);
    });
  }
  return out;
}

// 0x12345678 = 305419896 as a DINT in the four orders, words written by hand (values-words.ts table)
const HAND: [Endian, number[]][] = [
  ['little', [0x5678, 0x1234]],
  ['big', [0x3412, 0x7856]],
  ['middle', [0x1234, 0x5678]],
  ['mixed', [0x7856, 0x3412]],
];

describe('a record holds exactly what the PLCs hold', () => {
  it('every data type in every byte order, scaling, difference, average, bits, two stations and a failed read', async () => {
    const plc1 = line.plcs.get(1)!;
    const plc2 = line.plcs.get(2)!;
    const typed = typedPoints();
    const hand = HAND.map(([endian, words], i) => {
      plc1.memory.writeWords('DT', 1400 + 2 * i, words);
      return record({ name: `dint_${endian}_hand`, area: 1, reg_addr: String(1400 + 2 * i), type: 4, endian });
    });
    plc1.memory.writeWords('DT', 1500, [1000]);
    plc1.memory.writeWords('DT', 1501, encodeValue(7, 12, 'little'));
    plc1.memory.writeWords('DT', 1600, encodeValue(4, 100, 'little'));
    plc1.memory.writeWords('DT', 1602, [10]);
    plc1.memory.writeWords('WX', 1, [1 << 10]); // X1A on
    plc1.memory.writeWords('WY', 0, [1 << 5]); // Y5 on
    plc1.memory.writeWords('WR', 10, [1 << 10]); // R10A on, R10B off
    plc1.memory.writeWords('DT', 100, [1111]);
    plc2.memory.writeWords('DT', 100, [4242]);
    const more = [
      // 0…4000 → 0…100 %, 1 decimal
      record({
        name: 'level',
        dim: '%',
        area: 1,
        reg_addr: '1500',
        type: 0,
        enable_scal: true,
        scal_plc_min: 0,
        scal_plc_max: 4000,
        scal_log_min: 0,
        scal_log_max: 100,
        decimal: 1,
      }),
      // a REAL 4…20 mA → -50…150 °C
      record({
        name: 'temp',
        dim: 'C',
        area: 1,
        reg_addr: '1501',
        type: 7,
        enable_scal: true,
        scal_plc_min: 4,
        scal_plc_max: 20,
        scal_log_min: -50,
        scal_log_max: 150,
        decimal: 2,
      }),
      record({ name: 'counter', area: 1, reg_addr: '1600', type: 4, format: 'difference' }),
      record({ name: 'flow', area: 1, reg_addr: '1602', type: 0, format: 'average', decimal: 1 }),
      record({ name: 'x1A', area: 4, reg_addr: '1A' }),
      record({ name: 'y5', area: 5, reg_addr: '5' }),
      record({ name: 'r10A', area: 6, reg_addr: '10A' }),
      record({ name: 'r10B', area: 6, reg_addr: '10B' }),
      record({ name: 'station1', area: 1, reg_addr: '100', type: 1 }),
      record({ name: 'station2', area: 1, reg_addr: '100', type: 1, plc_addr: 2 }),
      record({ name: 'com1', area: 1, reg_addr: '0', if: 0 }), // COM1 is not enabled: the read fails
    ];
    const records = [...typed, ...hand, ...more].map((r, i) => ({ ...r, id: i + 1 }));
    await saveLog(rig, { header: 1, log_def: [logFile({ id: 1, name: 'values', trigger: 1, cycle: 10, records })] });

    const typedText = ENDIANS.flatMap(() => SAMPLES.map((s) => s.text));
    const header = ['Date', 'Time', ...records.map((r) => r.name)].join(',');
    // level 1000 → 25.0; temp 12 mA → 50.00; the first difference is empty; average of the one read
    const first = [
      '2026/03/02',
      '10:00:00',
      ...typedText,
      ...HAND.map(() => '305419896'),
      '25.0',
      '50.00',
      '',
      '10.0',
      '1',
      '1',
      '1',
      '0',
      '1111',
      '4242',
      '',
    ].join(',');
    await fileIs(rig, 'values_20260302.csv', crlf([header, first]));

    // an average sample between the records: 20 at 10:00:01, then 50 at the record → 35.0
    plc1.memory.writeWords('DT', 1602, [20]);
    clock.advance(1000);
    await requestsAfter(line, 1);
    plc1.memory.writeWords('DT', 1602, [50]);
    plc1.memory.writeWords('DT', 1600, encodeValue(4, 250, 'little'));
    plc1.memory.writeWords('DT', 1500, [4000]);
    plc2.memory.writeWords('DT', 100, [4343]);
    clock.advance(9000);
    const second = [
      '2026/03/02',
      '10:00:10',
      ...typedText,
      ...HAND.map(() => '305419896'),
      '100.0',
      '50.00',
      '150',
      '35.0',
      '1',
      '1',
      '1',
      '0',
      '1111',
      '4343',
      '',
    ].join(',');
    await fileIs(rig, 'values_20260302.csv', crlf([header, first, second]));
    expect(await csvFiles(rig)).toEqual(['values_20260302.csv']);
    const status = rig.d.ctx.logger.status();
    expect(status.files).toMatchObject([{ name: 'values', records: 2, missed: 0, failedReads: 2, lastRecordAt: T0 + 10_000 }]);
  });

  it.each([
    { sep: 'semicolon', dec: 'comma', name: 'semi', date: '2026/03/02', s: ';' },
    { sep: 'slash', dec: 'point', name: 'slash', date: '2026-03-02', s: '/' },
    { sep: 'tab', dec: 'comma', name: 'tab', date: '2026/03/02', s: '\t' },
  ] as const)('separator $sep with decimal $dec', async ({ sep, dec, name, date, s }) => {
    const plc1 = line.plcs.get(1)!;
    plc1.memory.writeWords('DT', 1700, encodeValue(7, -2.5, 'little'));
    plc1.memory.writeWords('DT', 1702, encodeValue(13, 'a;b/c', 'little'));
    plc1.memory.writeWords('DT', 1730, encodeValue(14, 1234.5678, 'little'));
    const records = [
      record({ id: 1, name: 'real', area: 1, reg_addr: '1700', type: 7, decimal: 1 }),
      record({ id: 2, name: 'text', area: 1, reg_addr: '1702', type: 13 }),
      record({ id: 3, name: 'lreal', area: 1, reg_addr: '1730', type: 15, decimal: 3 }),
    ];
    clock.advance(10_000);
    const at = new Date(clock.now());
    const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}:${String(at.getSeconds()).padStart(2, '0')}`;
    await saveLog(rig, { header: 1, csv_separator: sep, dec_separator: dec, log_def: [logFile({ id: 1, name, trigger: 1, cycle: 10, records })] });
    const d = dec === 'comma' ? ',' : '.';
    const textField = s === ';' || s === '/' ? '"a;b/c"' : 'a;b/c';
    const want = crlf([['Date', 'Time', 'real', 'text', 'lreal'].join(s), [date, time, `-2${d}5`, textField, `1${d}235E+03`].join(s)]);
    await fileIs(rig, `${name}_20260302.csv`, want);
  });
  // security.md CSV-1: a PLC STRING must not reach a spreadsheet as a formula; a number as text stays a number
  it('text cells that begin like a formula are neutralised, numbers written as text are not', async () => {
    const plc1 = line.plcs.get(1)!;
    const texts = ["=cmd|' /C calc'!A0", '+1+2', '-A1', '@SUM(A1)', '\tx', '-12.5', 'ok'];
    texts.forEach((t, i) => plc1.memory.writeWords('DT', 1800 + 26 * i, encodeValue(13, t, 'little')));
    plc1.memory.writeWords('DT', 2000, encodeValue(0, -7, 'little'));
    const records = [
      ...texts.map((_, i) => record({ id: i + 1, name: `s${i}`, area: 1, reg_addr: String(1800 + 26 * i), type: 13 })),
      record({ id: 8, name: 'int', area: 1, reg_addr: '2000', type: 0 }),
    ];
    clock.advance(10_000);
    const at = new Date(clock.now());
    const time = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    await saveLog(rig, { header: 1, log_def: [logFile({ id: 1, name: 'inject', trigger: 1, cycle: 10, records })] });
    const cells = ["'=cmd|' /C calc'!A0", "'+1+2", "'-A1", "'@SUM(A1)", "'\tx", '-12.5', 'ok', '-7'];
    const want = crlf([['Date', 'Time', ...records.map((r) => r.name)].join(','), ['2026/03/02', time, ...cells].join(',')]);
    await fileIs(rig, 'inject_20260302.csv', want);
  });
});
