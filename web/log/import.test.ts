import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AREA_MAX } from '../../device/model/plc.ts';
import { MAX_POINTS, typeWords } from '../../device/model/sections/logfile.ts';
import { exportFileName, exportVariables } from './export.ts';
import { IMPORT_DEFAULTS, type ImportOptions, importedRecords, optionIssues, parseVariables } from './import.ts';

// A global variable list as FPWIN Pro exports it with a German Windows (semicolons), one header line.
const FPWIN_SEMICOLON = `${[
  'Class;Identifier;IEC address;FP address;Type;Initial value;Comment',
  'VAR_GLOBAL;Tank_Level;%MW5.100;DT100;INT;0;Füllstand in mm',
  'VAR_GLOBAL;Flow_Total;%MD5.200;DDT200;DINT;0;Durchfluss gesamt',
  'VAR_GLOBAL;Temp_Boiler;%MD5.210;DDT210;REAL;0.0;"Kesseltemperatur; °C"',
  'VAR_GLOBAL;Pump_On;%MX0.10.10;R10A;BOOL;FALSE;Pumpe läuft',
  'VAR_GLOBAL;Door_Closed;%IX1.15;X1F;BOOL;FALSE;',
  'VAR_GLOBAL;Valve_Out;%QX0.3;Y3;BOOL;FALSE;Ventil',
  'VAR_GLOBAL;Status_Word;%MW5.300;DT300;WORD;16#0;',
  "VAR_GLOBAL;Recipe_Name;%MW5.400;DT400;STRING[32];'';Rezeptname",
  'VAR_GLOBAL;Counter_Link;%MD7.7;DLD7;UDINT;0;',
  'VAR_GLOBAL;Fl_Word;%MD6.2;DFL2;DWORD;0;',
  'VAR_GLOBAL;Flags;%MW0.5;WR5;WORD;0;Merkerwort',
  'VAR_GLOBAL;Energy;%ML5.500;DT500;LREAL;0.0;',
  '',
  'VAR_GLOBAL;_hidden;%MW5.600;DT600;INT;0;',
  'VAR_GLOBAL;Timer_Preset;;SV2;INT;0;',
  'VAR_GLOBAL;Motor_Data;%MW5.700;DT700;DUT_Motor;;',
  'VAR_GLOBAL;Tank_Level;%MW5.800;DT800;INT;0;zweimal',
  'VAR_GLOBAL_CONSTANT;MAX_SPEED;;;INT;1500;',
  "VAR_GLOBAL;Long_Text;%MW5.900;DT900;STRING[80];'';",
  'VAR_GLOBAL;Far_Away;%MD5.999424;DDT999424;DINT;0;',
  'VAR_GLOBAL;Bad Name!;%MW5.1;DT1;INT;0;',
  'VAR_GLOBAL;Pump_Word;%MW5.2;DT2;BOOL;FALSE;',
].join('\r\n')}\r\n`;

// The same kind of list from an English Windows: commas, every field quoted, three header lines.
const FPWIN_COMMA = `${[
  '"Global variables"',
  '"Project: Boiler_Plant","Exported 2026-03-14 09:12"',
  '"Class","Identifier","IEC address","FP address","Type","Initial value","Comment"',
  '"VAR_GLOBAL","Pressure_In","%MW5.10","DT10","INT","0","Inlet pressure, mbar"',
  '"VAR_GLOBAL","Pressure_Out","%MW5.11","DT11","INT","0","Outlet pressure, mbar"',
  '"VAR_GLOBAL","Alarm_Text","%MW5.20","DT20","STRING[40]","\'\'","Last alarm, ""as shown"""',
  '"VAR_GLOBAL","Burner_Hours","%MD5.30","DDT30","UDINT","0","Operating hours (pressure side)"',
].join('\n')}\n`;

const opts = (o: Partial<ImportOptions> = {}): ImportOptions => ({ ...IMPORT_DEFAULTS, ...o });
const v = (line: number, name: string, area: number, reg_addr: string, type: number, comment = '') => ({ line, name, comment, area, reg_addr, type });

describe('optionIssues (spec §5)', () => {
  it('the defaults are name 2, FP address 4, data type 5, comment 7, one header line, no filter', () => {
    expect(IMPORT_DEFAULTS).toEqual({ filter: '', separator: 'auto', headerLines: 1, nameColumn: 2, addressColumn: 4, typeColumn: 5, commentColumn: 7 });
    expect(optionIssues(IMPORT_DEFAULTS)).toEqual([]);
  });

  it('a filter needs at least 2 characters; header lines 0–30; columns 1–100', () => {
    expect(optionIssues(opts({ filter: 'x' }))).toEqual([{ field: 'filter', code: 'filter_short', params: { min: 2 } }]);
    expect(optionIssues(opts({ filter: ' x ' }))).toEqual([{ field: 'filter', code: 'filter_short', params: { min: 2 } }]);
    expect(optionIssues(opts({ filter: 'xy', headerLines: 30, commentColumn: 100 }))).toEqual([]);
    expect(optionIssues(opts({ headerLines: 31, nameColumn: 0, typeColumn: 101, addressColumn: 2.5 }))).toEqual([
      { field: 'headerLines', code: 'out_of_range', params: { min: 0, max: 30 } },
      { field: 'nameColumn', code: 'out_of_range', params: { min: 1, max: 100 } },
      { field: 'addressColumn', code: 'out_of_range', params: { min: 1, max: 100 } },
      { field: 'typeColumn', code: 'out_of_range', params: { min: 1, max: 100 } },
    ]);
  });
});

describe('parseVariables', () => {
  it('reads an FPWIN Pro list with semicolons: every loggable variable, a reason for every other row', () => {
    const r = parseVariables(FPWIN_SEMICOLON, IMPORT_DEFAULTS);
    expect(r.separator).toBe(';');
    expect(r.variables).toEqual([
      v(2, 'Tank_Level', 1, '100', 0, 'Füllstand in mm'),
      v(3, 'Flow_Total', 1, '200', 4, 'Durchfluss gesamt'),
      v(4, 'Temp_Boiler', 1, '210', 7, 'Kesseltemperatur; °C'),
      v(5, 'Pump_On', 6, '10A', 1, 'Pumpe läuft'),
      v(6, 'Door_Closed', 4, '1F', 1),
      v(7, 'Valve_Out', 5, '3', 1, 'Ventil'),
      v(8, 'Status_Word', 1, '300', 2),
      { ...v(9, 'Recipe_Name', 1, '400', 13, 'Rezeptname'), str_len: 32 },
      v(10, 'Counter_Link', 3, '7', 5),
      v(11, 'Fl_Word', 2, '2', 6),
      v(13, 'Energy', 1, '500', 14),
    ]);
    expect(r.skipped).toEqual([
      { line: 12, name: 'Flags', reason: 'relay_word', value: 'WR5' },
      { line: 15, name: '_hidden', reason: 'must_start_with_letter' },
      { line: 16, name: 'Timer_Preset', reason: 'area_not_logged', value: 'SV2' },
      { line: 17, name: 'Motor_Data', reason: 'unknown_type', value: 'DUT_Motor' },
      { line: 18, name: 'Tank_Level', reason: 'duplicate' },
      { line: 19, name: 'MAX_SPEED', reason: 'missing_field' },
      { line: 20, name: 'Long_Text', reason: 'string_too_long', value: 'STRING[80]' },
      { line: 21, name: 'Far_Away', reason: 'address_out_of_range', params: { min: 0, max: AREA_MAX.DT - 1 } },
      { line: 22, name: 'Bad Name!', reason: 'invalid_characters' },
      { line: 23, name: 'Pump_Word', reason: 'bool_needs_bit', value: 'DT2' },
    ]);
    expect(r.filtered).toBe(0);
  });

  it('reads a quoted comma list with three header lines; the filter matches name or comment, case ignored', () => {
    const all = parseVariables(FPWIN_COMMA, opts({ headerLines: 3 }));
    expect(all.separator).toBe(',');
    expect(all.variables.map((x) => x.name)).toEqual(['Pressure_In', 'Pressure_Out', 'Alarm_Text', 'Burner_Hours']);
    expect(all.variables[2]).toEqual({ ...v(6, 'Alarm_Text', 1, '20', 13, 'Last alarm, "as shown"'), str_len: 40 });
    const some = parseVariables(FPWIN_COMMA, opts({ headerLines: 3, filter: 'PRESSURE' }));
    expect(some.variables.map((x) => x.name)).toEqual(['Pressure_In', 'Pressure_Out', 'Burner_Hours']); // the last by its comment
    expect(some.filtered).toBe(1);
    expect(some.skipped).toEqual([]);
  });

  it('too few header lines turn the header rows into refused rows, not into points', () => {
    const r = parseVariables(FPWIN_COMMA, opts({ headerLines: 1 }));
    expect(r.variables).toHaveLength(4);
    expect(r.skipped).toEqual([
      { line: 2, name: 'Exported 2026-03-14 09:12', reason: 'missing_field' },
      { line: 3, name: 'Identifier', reason: 'bad_address', value: 'FP address' },
    ]);
  });

  it('columns and separator can be chosen: a tab list with name, address and type in columns 1–3', () => {
    const text = 'Name\tAddress\tType\nspeed\tDT5\tUINT\nlamp\tY1A\tBOOL\n';
    const r = parseVariables(text, opts({ separator: '\t', nameColumn: 1, addressColumn: 2, typeColumn: 3, commentColumn: 4 }));
    expect(r.variables).toEqual([v(2, 'speed', 1, '5', 1), v(3, 'lamp', 5, '1A', 1)]);
    // the wrong separator finds no fields
    expect(parseVariables(text, opts({ separator: ';', nameColumn: 1, addressColumn: 2, typeColumn: 3 })).variables).toEqual([]);
  });

  it('names already in the log file are duplicates; a list with only a header has no valid entry', () => {
    const r = parseVariables(FPWIN_SEMICOLON, IMPORT_DEFAULTS, ['tank_level', 'ENERGY']);
    expect(r.variables.map((x) => x.name)).not.toContain('Tank_Level');
    expect(r.skipped.filter((s) => s.reason === 'duplicate').map((s) => s.line)).toEqual([2, 13, 18]);
    expect(parseVariables('Class;Identifier;IEC address;FP address;Type;Initial value;Comment\r\n', IMPORT_DEFAULTS).variables).toEqual([]);
    expect(parseVariables('', IMPORT_DEFAULTS)).toEqual({ variables: [], skipped: [], filtered: 0, separator: ';' });
  });
});

describe('importedRecords', () => {
  it("appends after the log file's points, through its interface, reals with 2 decimals", () => {
    const r = parseVariables(FPWIN_SEMICOLON, IMPORT_DEFAULTS);
    const recs = importedRecords(r.variables.slice(0, 3), { interface: 0, records: [{ id: 1 } as never, { id: 2 } as never] });
    expect(recs.map((x) => [x.id, x.name, x.if, x.area, x.reg_addr, x.type, x.decimal])).toEqual([
      [3, 'Tank_Level', 0, 1, '100', 0, 0],
      [4, 'Flow_Total', 0, 1, '200', 4, 0],
      [5, 'Temp_Boiler', 0, 1, '210', 7, 2],
    ]);
    expect(recs[0]).toMatchObject({ dim: '', plc_addr: 0, format: 'momentary', endian: 'little', enable_scal: false });
  });
});

describe('export → import round trip', () => {
  it('writes the default columns with one header line', () => {
    const text = exportVariables([
      { name: 'Tank_Level', area: 1, reg_addr: '100', type: 0 },
      { name: 'Pump On', area: 6, reg_addr: '10A', type: 1 },
    ]);
    expect(text).toBe(
      'Class;Identifier;IEC address;FP address;Type;Initial value;Comment\r\n' +
        'VAR_GLOBAL;Tank_Level;;DT100;INT;;\r\n' +
        'VAR_GLOBAL;Pump On;;R10A;BOOL;;\r\n',
    );
    expect(exportVariables([{ name: 'x', area: 1, reg_addr: '2', type: 7 }], ',')).toBe(
      'Class,Identifier,IEC address,FP address,Type,Initial value,Comment\r\nVAR_GLOBAL,x,,DDT2,REAL,,\r\n',
    );
    expect(exportFileName('tank')).toBe('tank_variables.csv');
  });

  it('property: every exported point imports again with its name, area, address and type', () => {
    const name = fc
      .tuple(fc.constantFrom('a', 'B', 'x'), fc.string({ unit: fc.constantFrom('a', 'Z', '9', '_', '.', '-', ' '), maxLength: 20 }))
      .map(([a, b]) => (a + b).trimEnd());
    const word = fc.integer({ min: 0, max: 15 }).chain((type) =>
      fc.record({
        area: fc.constantFrom(1, 2, 3),
        type: fc.constant(type),
        reg_addr: fc.nat(AREA_MAX.LD - typeWords(type) + 1).map(String), // LD is the smallest word area
      }),
    );
    const bit = fc.record({
      area: fc.constantFrom(4, 5, 6),
      type: fc.constantFrom(0, 1, 2, 3),
      reg_addr: fc.tuple(fc.nat(512), fc.nat(15)).map(([w, b]) => (w > 0 || b > 9 ? `${w}${b.toString(16).toUpperCase()}` : String(b))),
    });
    const points = fc
      .uniqueArray(fc.tuple(name, fc.oneof(word, bit)), { maxLength: 40, selector: ([n]) => n.toLowerCase() })
      .map((list) => list.map(([n, p]) => ({ name: n, ...p })));
    fc.assert(
      fc.property(points, fc.constantFrom(';', ',', '\t'), (recs, sep) => {
        const back = parseVariables(exportVariables(recs, sep as ';'), IMPORT_DEFAULTS);
        expect(back.skipped).toEqual([]);
        expect(back.separator).toBe(sep);
        expect(back.variables.map(({ name: n, area, reg_addr, type }) => ({ name: n, area, reg_addr, type }))).toEqual(recs);
      }),
    );
  });

  it('700 points (spec §9 maximum) export and import whole', () => {
    const recs = Array.from({ length: MAX_POINTS }, (_, i) => ({ name: `P${i}`, area: 1, reg_addr: String(i * 2), type: 4 }));
    const back = parseVariables(exportVariables(recs), IMPORT_DEFAULTS);
    expect(back.skipped).toEqual([]);
    expect(back.variables).toHaveLength(MAX_POINTS);
    expect(back.variables[MAX_POINTS - 1]).toMatchObject({ name: `P${MAX_POINTS - 1}`, reg_addr: String((MAX_POINTS - 1) * 2) });
  });
});
