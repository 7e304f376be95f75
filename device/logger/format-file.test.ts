import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type LogRecord, recordSchema } from '../model/sections/logfile.ts';
import { csvFormat, formatLine, headerLines, offsetCalendar } from './csv-text.ts';
import { DEFAULT_DATA_FORMATS, parseFormatFile, type UserFormat } from './format-file.ts';

const rec = (r: Partial<LogRecord> & { name: string }): LogRecord => v.parse(recordSchema, r);
const UTC = offsetCalendar(() => 0);

// A format file as a technician writes it for the original unit (mewtocol.md §9): four words of a
// meter on COM1, a seven-row header, then date, time and the values.
const METER_CFG = [
  '# Log format for the meter cabinet',
  '%DEF_TITLE="Meter cabinet"   # shown in the console',
  '%DEF_SEPARATOR=","           # overrides the separator of the logger settings',
  '%DEF_FILENAME="%F(%y%m%d_%H%M%S_TRG).csv"',
  '%DEF_DATE="%Y/%m/%d"',
  '%DEF_TIME="%H:%M:%S"',
  '%DEF_INT="S16"',
  '%DEF_UINT="US16"',
  '%DEF_WORD="HEX4"',
  '%DEF_BIN="BITS"',
  '%DEF_DINT="S32"',
  '%DEF_UDINT="US32"',
  '%DEF_DWORD="HEX8"',
  '%DEF_REAL="FLT"',
  '%DEF_REALEXP="FLT"',
  '%DEF_ASCII="CHAR2"',
  '',
  '%HEADER="Date","Time",%COLUMNS',
  '%HEADER+=,,%NAMES',
  '%HEADER+=,,%COMS        # e.g. COM1 [Unit no.10]',
  '%HEADER+=,,%REGISTERS   # e.g. DT100',
  '%HEADER+=,,%TYPES',
  '%HEADER+=,,%DATAFORMATS',
  '%HEADER+=,,%UNITS',
  '%LOGDATA=%DATE,%TIME,%VALUES',
].join('\r\n');
const METER_POINTS = [
  rec({ name: 'datapoint1', if: 0, type: 0, reg_addr: '100' }),
  rec({ name: 'datapoint2', if: 0, type: 1, reg_addr: '101' }),
  rec({ name: 'datapoint3', if: 0, type: 0, reg_addr: '102' }),
  rec({ name: 'datapoint4', if: 0, type: 1, reg_addr: '103' }),
];

const parsed = (source: string): UserFormat => {
  const r = parseFormatFile(source);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const problems = (source: string) => {
  const r = parseFormatFile(source);
  return r.ok ? [] : r.error.issues;
};
const TITLE = '%DEF_TITLE="t"\n';

describe('a complete format file (header mode 4)', () => {
  it('gives the seven header rows and the data line of the original example', () => {
    const user = parsed(METER_CFG);
    expect(user.title).toBe('Meter cabinet');
    expect(user.fileName).toBe('%F(%y%m%d_%H%M%S_TRG).csv');
    const fmt = csvFormat({ header: 4, csv_separator: 'semicolon', dec_separator: 'point' }, METER_POINTS, { user, calendar: UTC });
    expect(headerLines(METER_POINTS, fmt).join('')).toBe(
      [
        'Date,Time,1,2,3,4',
        ',,datapoint1,datapoint2,datapoint3,datapoint4',
        ',,COM1,COM1,COM1,COM1',
        ',,DT100,DT101,DT102,DT103',
        ',,INT,UINT,INT,UINT',
        ',,S16,US16,S16,US16',
        ',,,,,',
        '',
      ].join('\r\n'),
    );
    expect(formatLine({ at: Date.UTC(2020, 0, 21, 14, 55, 30), values: [0, 0, 0, 0] }, fmt)).toBe('2020/01/21,14:55:30,0,0,0,0\r\n');
  });

  it('own texts, separator, date and time formats, invalid text, kinds and stations', () => {
    const user = parsed(
      [
        '\uFEFF%DEF_TITLE="Line #2"',
        '%def_separator=";"',
        '%DEF_DATE="%d.%m.%Y (W%W)"',
        '%DEF_TIME="%H.%M"',
        '%DEF_INVALID="n/a"',
        '%DEF_REAL="IEEE ""single"""',
        '%HEADER="Plant: north;south"',
        '%HEADER+="Point "%COLUMNS',
        '%HEADER+="",%KINDS,%TYPES',
        '%HEADER+=;%COMS',
        '%LOGDATA="at "%TIME;%DATE;%VALUES',
      ].join('\n'),
    );
    expect(user.title).toBe('Line #2');
    expect(user.dataFormats[7]).toBe('IEEE "single"');
    expect(user.dataFormats[0]).toBe(DEFAULT_DATA_FORMATS[0]);
    const points = [rec({ name: 'flow', type: 7, decimal: 2, format: 'average', if: 5, plc_addr: 10 }), rec({ name: 'n', type: 0 })];
    const fmt = csvFormat({ header: 4, csv_separator: 'comma', dec_separator: 'comma' }, points, { user, calendar: UTC });
    expect(headerLines(points, fmt)).toEqual([
      '"Plant: north;south"\r\n',
      'Point 1;2\r\n',
      ';average;momentary;REAL;INT\r\n',
      ';COM4 [Unit no.10];INTERNAL\r\n',
    ]);
    expect(formatLine({ at: Date.UTC(2024, 0, 1, 8, 5), values: [1.5, null] }, fmt)).toBe('at 08.05;01.01.2024 (W01);1,50;n/a\r\n');
  });

  it('defaults: the logger’s separator, the standard date and time, empty failed reads, no header', () => {
    const user = parsed('%DEF_TITLE="bare"\n%LOGDATA=%VALUES');
    const points = [rec({ name: 'x' })];
    const fmt = csvFormat({ header: 4, csv_separator: 'slash', dec_separator: 'point' }, points, { user, calendar: UTC });
    expect(fmt).toMatchObject({ separator: '/', date: '%Y-%m-%d', time: '%H:%M:%S', invalid: '' });
    expect(headerLines(points, fmt)).toEqual([]);
    expect(formatLine({ at: 0, values: [null] }, fmt)).toBe('\r\n');
    expect(parsed('%DEF_TITLE="t"').line).toEqual(csvFormat({ header: 1, csv_separator: 'comma', dec_separator: 'point' }, points).line);
  });

  it('syntax details: tab separator, comments, %HEADER= starts over, CRLF and LF', () => {
    expect(parsed(`${TITLE}%DEF_SEPARATOR="\\t"`).separator).toBe('\t');
    const user = parsed('%DEF_TITLE="t" # comment with "quotes"\r\n\r\n   # only a comment\r\n%HEADER="old"\n%HEADER="new"\n%HEADER+=%NAMES');
    expect(user.header).toEqual([[{ kind: 'text', text: 'new' }], [{ kind: 'var', name: 'NAMES' }]]);
  });
});

describe('errors name the line and the reason', () => {
  it.each([
    ['%DEF_COLOR="red"', 'unknown key %DEF_COLOR'],
    ['%DEF_SPLIT_MINUTES="10"', '%DEF_SPLIT_MINUTES is not supported here: the file split is set per log file'],
    ['%DEF_DATETIME="%Y"', 'not supported here'],
    ['%HEADER=Date,Time', 'unexpected "D" at column 9 (text belongs in quotation marks)'],
    ['%HEADER="Date', 'the quotation mark at column 9 is not closed'],
    ['%HEADER+=,,%VALUES', '%VALUES cannot be used in %HEADER'],
    ['%HEADER=', '%HEADER needs a value'],
    ['%HEADER=%NAMES=', 'unexpected "=" in %HEADER'],
    ['%LOGDATA=%DATE,%TIME', '%LOGDATA needs %VALUES once'],
    ['%LOGDATA=%VALUES,%VALUES', '%LOGDATA needs %VALUES once'],
    ['%LOGDATA=%VALUES,%NAMES', '%NAMES cannot be used in %LOGDATA'],
    ['%LOGDATA+=%VALUES', '"+=" only adds rows to %HEADER'],
    ['%DEF_SEPARATOR="ab"', 'the separator must be one character'],
    ['%DEF_SEPARATOR="x"', 'the separator must be one character'],
    ['%DEF_SEPARATOR=;', '%DEF_SEPARATOR takes one text in quotation marks'],
    ['%DEF_DATE="%Y/%q"', 'the date format may use'],
    ['%DEF_TIME=""', 'the time format may use'],
    ['%DEF_FILENAME="%F_%Q.csv"', 'the file name may use'],
    ['%DEF_INVALID="seventeen chars!!"', 'at most 16 characters'],
    ['%DEF_INT="A" "B"', '%DEF_INT takes one text in quotation marks'],
    ['%DEF_TITLE', '%DEF_TITLE needs "=" and a value'],
    ['DEF_TIME="%H"', 'unexpected "D" at column 1'],
    ['"x"', 'a line starts with a %KEY'],
    ['%=', '"%" at column 1 is not followed by a name'],
  ])('%s', (line, reason) => {
    const issues = problems(`${TITLE}${line}`);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line).toBe(2);
    expect(issues[0]!.reason).toContain(reason);
  });

  it('every problem at once, in one message; a missing title too', () => {
    const r = parseFormatFile('# no title\n%DEF_DATE="%Y"\n%DEF_DATE="%m"\n%DEF_WORD="H"\n%DEF_HEX="X"\n%FOO="1"');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('format_file');
    expect(r.error.issues).toEqual([
      { line: 3, reason: '%DEF_DATE is set twice (first on line 2)' },
      { line: 5, reason: '%DEF_HEX is set twice (first on line 4)' },
      { line: 6, reason: 'unknown key %FOO' },
      { line: 0, reason: '%DEF_TITLE is missing (it is required)' },
    ]);
    expect(r.error.message).toBe(
      'format file: line 3: %DEF_DATE is set twice (first on line 2); line 5: %DEF_HEX is set twice (first on line 4); ' +
        'line 6: unknown key %FOO; %DEF_TITLE is missing (it is required)',
    );
    expect(problems('%DEF_TITLE="  "')).toEqual([
      { line: 1, reason: 'the title must not be empty' },
      { line: 0, reason: '%DEF_TITLE is missing (it is required)' },
    ]);
  });
});
