// The SQL the unit sends (dialects.ts), per database: MS SQL has no server on these machines, so
// its statements are checked here as text with their parameters; PostgreSQL and MySQL/MariaDB
// run the same statements in test/integration/sql-engine.test.ts.
import { describe, expect, it } from 'vitest';
import type { DbRow } from '../service-runtime/db-row.ts';
import { createTable, insertRows, quoteIdent, quoteTable, rowsPerStatement, sqlErrorKind, tableColumns, tableMismatch } from './dialects.ts';

const row = (key: string, at: number, level: number, pump: boolean): DbRow => ({
  key,
  at,
  columns: [
    ['level', 'f64'],
    ['pump', 'bool'],
    ['batch', 'string'],
    ['total', 'u64'],
  ],
  values: [level, pump, 'B-1', '18446744073709551615'],
});
const rows = [row('a', 1_700_000_000_000, 21.5, true), row('b', 1_700_000_001_000, 22, false)];

describe('SQL dialects', () => {
  it("quote identifiers in each database's way, the quote doubled inside", () => {
    expect(quoteIdent('postgres', 'a"b')).toBe('"a""b"');
    expect(quoteIdent('mysql', 'a`b')).toBe('`a``b`');
    expect(quoteIdent('mssql', 'a]b')).toBe('[a]]b]');
    expect(quoteTable('mssql', 'plant.tank_log')).toBe('[plant].[tank_log]');
  });

  it('MS SQL: the table is created when missing, typed per point', () => {
    expect(createTable('mssql', 'plant.tank_log', rows[0]!)).toEqual({
      sql:
        "IF OBJECT_ID(@p0, N'U') IS NULL CREATE TABLE [plant].[tank_log] ([time_stamp] datetime2(3) NOT NULL, [row_key] varchar(40) NOT NULL PRIMARY KEY, " +
        '[level] float, [pump] bit, [batch] nvarchar(48), [total] decimal(20,0))',
      params: ['[plant].[tank_log]'],
      types: ['NVarChar'],
    });
  });

  it('MS SQL: one INSERT … SELECT of the rows whose key is not there yet, every value a typed parameter', () => {
    const st = insertRows('mssql', 'tank_log', rows);
    const cols = '[time_stamp], [row_key], [level], [pump], [batch], [total]';
    expect(st.sql).toBe(
      `INSERT INTO [tank_log] (${cols}) SELECT v.[time_stamp], v.[row_key], v.[level], v.[pump], v.[batch], v.[total] ` +
        'FROM (VALUES (@p0, @p1, @p2, @p3, @p4, @p5), (@p6, @p7, @p8, @p9, @p10, @p11)) ' +
        `AS v (${cols}) WHERE NOT EXISTS (SELECT 1 FROM [tank_log] AS o WITH (UPDLOCK, HOLDLOCK) WHERE o.[row_key] = v.[row_key])`,
    );
    expect(st.params).toEqual([
      new Date(1_700_000_000_000),
      'a',
      21.5,
      true,
      'B-1',
      '18446744073709551615',
      new Date(1_700_000_001_000),
      'b',
      22,
      false,
      'B-1',
      '18446744073709551615',
    ]);
    expect(st.types).toEqual(['DateTime2', 'VarChar', 'Float', 'Bit', 'NVarChar', 'VarChar', 'DateTime2', 'VarChar', 'Float', 'Bit', 'NVarChar', 'VarChar']);
    expect(tableColumns('mssql', 'tank_log')).toMatchObject({ params: [null, 'tank_log'], types: ['NVarChar', 'NVarChar'] });
  });

  it('PostgreSQL and MySQL: insert-if-absent by the row key, numbered and positional parameters', () => {
    expect(insertRows('postgres', 'tank_log', rows.slice(0, 1)).sql).toBe(
      'INSERT INTO "tank_log" ("time_stamp", "row_key", "level", "pump", "batch", "total") VALUES ($1, $2, $3, $4, $5, $6) ' +
        'ON CONFLICT ("row_key") DO NOTHING',
    );
    expect(insertRows('mysql', 'tank_log', rows.slice(0, 1)).sql).toBe(
      'INSERT INTO `tank_log` (`time_stamp`, `row_key`, `level`, `pump`, `batch`, `total`) VALUES (?, ?, ?, ?, ?, ?) ' +
        'ON DUPLICATE KEY UPDATE `row_key` = `row_key`',
    );
    expect(createTable('postgres', 'tank_log', rows[0]!).sql).toContain('"total" numeric(20,0)');
    expect(createTable('mysql', 'tank_log', rows[0]!).sql).toContain('`total` BIGINT UNSIGNED');
  });

  it('MS SQL keeps a statement within its 2100 parameters', () => {
    expect(rowsPerStatement('mssql', 100, 100)).toBe(19); // 19 × 102 = 1938
    expect(rowsPerStatement('postgres', 100, 100)).toBe(100);
    expect(rowsPerStatement('mssql', 2000, 100)).toBe(1);
  });

  it('an existing table fits when every column is there with a fitting type', () => {
    const have = [
      { name: 'TIME_STAMP', type: 'datetime2' },
      { name: 'row_key', type: 'varchar' },
      { name: 'level', type: 'float' },
      { name: 'pump', type: 'bit' },
      { name: 'batch', type: 'nvarchar' },
      { name: 'total', type: 'decimal' },
    ];
    expect(tableMismatch(rows[0]!, have)).toBe('');
    expect(tableMismatch(rows[0]!, have.slice(0, 4).concat({ name: 'batch', type: 'int' }))).toBe('batch is int, the row holds a text; no column total');
  });

  it('server errors: a table that does not fit, a value that does not fit, anything else', () => {
    expect(sqlErrorKind('postgres', { code: '42703' })).toBe('table');
    expect(sqlErrorKind('postgres', { code: '22003' })).toBe('value');
    expect(sqlErrorKind('postgres', { code: '28P01' })).toBeUndefined();
    expect(sqlErrorKind('mysql', { errno: 1264 })).toBe('value');
    expect(sqlErrorKind('mssql', { number: 207 })).toBe('table');
    expect(sqlErrorKind('mssql', { number: 8115 })).toBe('value');
    expect(sqlErrorKind('mssql', { number: 18456 })).toBeUndefined();
  });
});
