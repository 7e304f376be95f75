// The SQL the unit sends, per database (design/services.md SQL; docs/services.md "SQL rows"): the
// table of a data point list (a time stamp column, a unique row key, one column per point typed
// from its kind), the check of an existing table's columns, and the insert of a batch of rows that
// skips a row whose key is there already (a replay after a kill never doubles a row). Identifiers
// are always quoted in the database's own way; every value is a parameter. Pure: the engine runs
// these on the drivers, the unit tests read them (MS SQL has no server on these machines).
import { DB_KEY_COLUMN, DB_TIME_COLUMN } from '../model/sections/datapoint.ts';
import type { Sql } from '../model/sections/sql.ts';
import type { ColumnKind, DbRow } from '../service-runtime/db-row.ts';

export type SqlDialect = 'postgres' | 'mysql' | 'mssql';
export const DIALECT_OF: Record<Sql['db_type'], SqlDialect> = { 0: 'mssql', 1: 'mysql', 2: 'postgres' };

export const TIME_COLUMN = DB_TIME_COLUMN;
export const KEY_COLUMN = DB_KEY_COLUMN;
const KEY_LENGTH = 40;

/** tedious parameter types the MS SQL statements name (device/sql/session.ts maps them to TYPES) */
export type TdsType = 'Int' | 'BigInt' | 'Float' | 'Bit' | 'NVarChar' | 'VarChar' | 'DateTime2';

export interface SqlStatement {
  sql: string;
  params: unknown[];
  /** MS SQL: the type of each parameter (@p0, @p1, …) */
  types?: TdsType[];
}

const TYPES: Record<ColumnKind, Record<SqlDialect, string>> = {
  i16: { postgres: 'smallint', mysql: 'SMALLINT', mssql: 'smallint' },
  u16: { postgres: 'integer', mysql: 'SMALLINT UNSIGNED', mssql: 'int' },
  i32: { postgres: 'integer', mysql: 'INT', mssql: 'int' },
  u32: { postgres: 'bigint', mysql: 'INT UNSIGNED', mssql: 'bigint' },
  i64: { postgres: 'bigint', mysql: 'BIGINT', mssql: 'bigint' },
  u64: { postgres: 'numeric(20,0)', mysql: 'BIGINT UNSIGNED', mssql: 'decimal(20,0)' },
  f64: { postgres: 'double precision', mysql: 'DOUBLE', mssql: 'float' },
  bool: { postgres: 'boolean', mysql: 'BOOLEAN', mssql: 'bit' },
  ascii: { postgres: 'varchar(2)', mysql: 'VARCHAR(2)', mssql: 'nvarchar(2)' },
  string: { postgres: 'varchar(48)', mysql: 'VARCHAR(48)', mssql: 'nvarchar(48)' },
  datetime: { postgres: 'timestamp(0)', mysql: 'DATETIME', mssql: 'datetime2(0)' },
};
const TIME_TYPE: Record<SqlDialect, string> = { postgres: 'timestamptz(3)', mysql: 'DATETIME(3)', mssql: 'datetime2(3)' };
const KEY_TYPE: Record<SqlDialect, string> = { postgres: `varchar(${KEY_LENGTH})`, mysql: `VARCHAR(${KEY_LENGTH})`, mssql: `varchar(${KEY_LENGTH})` };
const TDS: Record<ColumnKind, TdsType> = {
  i16: 'Int',
  u16: 'Int',
  i32: 'Int',
  u32: 'BigInt',
  i64: 'BigInt',
  u64: 'VarChar',
  f64: 'Float',
  bool: 'Bit',
  ascii: 'NVarChar',
  string: 'NVarChar',
  datetime: 'NVarChar',
};

/** Parameters one statement may carry (MS SQL: 2100 at most; the others 65535). */
const PARAM_LIMIT: Record<SqlDialect, number> = { postgres: 65_000, mysql: 65_000, mssql: 2_000 };

export const columnType = (d: SqlDialect, kind: ColumnKind): string => TYPES[kind][d];

/** A name as an identifier of the dialect, the quote character doubled inside. */
export function quoteIdent(d: SqlDialect, name: string): string {
  if (d === 'postgres') return `"${name.replace(/"/g, '""')}"`;
  if (d === 'mysql') return `\`${name.replace(/`/g, '``')}\``;
  return `[${name.replace(/]/g, ']]')}]`;
}

/** `schema.table` or `table` (spec §5 database names may hold a dot): its parts. */
export function tableParts(name: string): { schema?: string; table: string } {
  const i = name.lastIndexOf('.');
  return i < 0 ? { table: name } : { schema: name.slice(0, i), table: name.slice(i + 1) };
}

export function quoteTable(d: SqlDialect, name: string): string {
  const { schema, table } = tableParts(name);
  return (schema !== undefined ? `${quoteIdent(d, schema)}.` : '') + quoteIdent(d, table);
}

const placeholder = (d: SqlDialect, i: number): string => (d === 'postgres' ? `$${i + 1}` : d === 'mysql' ? '?' : `@p${i}`);

/** The names of a row's columns, time stamp and key first. */
export const rowColumns = (row: Pick<DbRow, 'columns'>): string[] => [TIME_COLUMN, KEY_COLUMN, ...row.columns.map(([n]) => n)];

/** CREATE TABLE for rows like `row` when the table does not exist yet. */
export function createTable(d: SqlDialect, table: string, row: Pick<DbRow, 'columns'>): SqlStatement {
  const cols = [
    `${quoteIdent(d, TIME_COLUMN)} ${TIME_TYPE[d]} NOT NULL`,
    `${quoteIdent(d, KEY_COLUMN)} ${KEY_TYPE[d]} NOT NULL PRIMARY KEY`,
    ...row.columns.map(([n, k]) => `${quoteIdent(d, n)} ${columnType(d, k)}`),
  ].join(', ');
  if (d === 'mssql') {
    return { sql: `IF OBJECT_ID(@p0, N'U') IS NULL CREATE TABLE ${quoteTable(d, table)} (${cols})`, params: [quoteTable(d, table)], types: ['NVarChar'] };
  }
  return { sql: `CREATE TABLE IF NOT EXISTS ${quoteTable(d, table)} (${cols})`, params: [] };
}

/** The columns of an existing table (name, data type) in their order; no rows when it does not exist. */
export function tableColumns(d: SqlDialect, table: string): SqlStatement {
  const { schema, table: t } = tableParts(table);
  if (d === 'postgres') {
    return {
      sql:
        'SELECT column_name AS name, data_type AS type FROM information_schema.columns ' +
        'WHERE table_schema = COALESCE($1, current_schema()) AND table_name = $2 ORDER BY ordinal_position',
      params: [schema ?? null, t],
    };
  }
  if (d === 'mysql') {
    return {
      sql:
        'SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM information_schema.COLUMNS ' +
        'WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
      params: [schema ?? null, t],
    };
  }
  return {
    sql:
      'SELECT COLUMN_NAME AS name, DATA_TYPE AS type FROM INFORMATION_SCHEMA.COLUMNS ' +
      'WHERE TABLE_SCHEMA = COALESCE(@p0, SCHEMA_NAME()) AND TABLE_NAME = @p1 ORDER BY ORDINAL_POSITION',
    params: [schema ?? null, t],
    types: ['NVarChar', 'NVarChar'],
  };
}

/** MySQL only: the row key column is unique (else ON DUPLICATE KEY would not keep a replay out). */
export function keyUnique(table: string): SqlStatement {
  const { schema, table: t } = tableParts(table);
  return {
    sql:
      'SELECT COUNT(*) AS n FROM information_schema.STATISTICS ' +
      'WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ? AND NON_UNIQUE = 0',
    params: [schema ?? null, t, KEY_COLUMN],
  };
}

type Category = 'number' | 'text' | 'time' | 'bool';
const KIND_CATEGORY: Record<ColumnKind, Category> = {
  i16: 'number',
  u16: 'number',
  i32: 'number',
  u32: 'number',
  i64: 'number',
  u64: 'number',
  f64: 'number',
  bool: 'bool',
  ascii: 'text',
  string: 'text',
  datetime: 'time',
};

/** What a database's data_type holds, broadly; undefined for types no row value goes into. */
function categoryOf(type: string): Category | 'bool-or-number' | undefined {
  const t = type.toLowerCase();
  if (/^(bool|boolean)$/.test(t)) return 'bool';
  if (/^(tinyint|bit)$/.test(t)) return 'bool-or-number';
  if (/int|numeric|decimal|double|float|real|money/.test(t)) return 'number';
  if (/char|text|string/.test(t)) return 'text';
  if (/time|date/.test(t)) return 'time';
  return undefined;
}

/**
 * Why an existing table does not take rows like `row` ('' when it does): a missing column, or one
 * whose type holds another kind of value (names compare without case, as MySQL and MS SQL do).
 */
export function tableMismatch(row: Pick<DbRow, 'columns'>, existing: readonly { name: string; type: string }[]): string {
  const have = new Map(existing.map((c) => [c.name.toLowerCase(), c.type]));
  const wanted: [string, Category][] = [[TIME_COLUMN, 'time'], [KEY_COLUMN, 'text'], ...row.columns.map(([n, k]): [string, Category] => [n, KIND_CATEGORY[k]])];
  const problems: string[] = [];
  for (const [name, category] of wanted) {
    const type = have.get(name.toLowerCase());
    if (type === undefined) {
      problems.push(`no column ${name}`);
      continue;
    }
    const c = categoryOf(type);
    const fits = c === category || (c === 'bool-or-number' && (category === 'bool' || category === 'number')) || (category === 'bool' && c === 'number');
    if (!fits) problems.push(`${name} is ${type}, the row holds a ${category}`);
  }
  return problems.join('; ');
}

/** Rows per statement for rows of `columns` columns. */
export function rowsPerStatement(d: SqlDialect, columns: number, batch: number): number {
  return Math.max(1, Math.min(batch, Math.floor(PARAM_LIMIT[d] / (columns + 2))));
}

/** INSERT of rows sharing their columns; a row whose key is in the table already is left out. */
export function insertRows(d: SqlDialect, table: string, rows: readonly DbRow[]): SqlStatement {
  const first = rows[0];
  if (!first) throw new RangeError('no rows to insert');
  const names = rowColumns(first).map((n) => quoteIdent(d, n));
  const params: unknown[] = [];
  const types: TdsType[] = [];
  const tuples = rows.map((r) => {
    const values: unknown[] = [new Date(r.at), r.key, ...r.values];
    const kinds: TdsType[] = ['DateTime2', 'VarChar', ...r.columns.map(([, k]) => TDS[k])];
    const marks = values.map((v, i) => {
      params.push(v);
      types.push(kinds[i]!);
      return placeholder(d, params.length - 1);
    });
    return `(${marks.join(', ')})`;
  });
  const t = quoteTable(d, table);
  const key = quoteIdent(d, KEY_COLUMN);
  if (d === 'postgres') return { sql: `INSERT INTO ${t} (${names.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT (${key}) DO NOTHING`, params };
  if (d === 'mysql') return { sql: `INSERT INTO ${t} (${names.join(', ')}) VALUES ${tuples.join(', ')} ON DUPLICATE KEY UPDATE ${key} = ${key}`, params };
  // MS SQL: the rows as a table value, those whose key is not there yet inserted; the locks keep a
  // concurrent writer of the same key out between the check and the insert
  return {
    sql:
      `INSERT INTO ${t} (${names.join(', ')}) SELECT ${names.map((n) => `v.${n}`).join(', ')} FROM (VALUES ${tuples.join(', ')}) AS v (${names.join(', ')}) ` +
      `WHERE NOT EXISTS (SELECT 1 FROM ${t} AS o WITH (UPDLOCK, HOLDLOCK) WHERE o.${key} = v.${key})`,
    params,
    types,
  };
}

/**
 * What a server error says about the rows: 'table' when the table does not fit them (a column
 * missing or of another type, no unique key), 'value' when a value does not fit its column, else
 * undefined (connection, login, rights: the rows wait). By the servers' codes.
 */
export function sqlErrorKind(d: SqlDialect, e: unknown): 'table' | 'value' | undefined {
  const err = e as { code?: unknown; errno?: unknown; number?: unknown };
  if (d === 'postgres') {
    const code = typeof err.code === 'string' ? err.code : '';
    // 42703 undefined column, 42P10 no unique constraint for ON CONFLICT, 42804 datatype mismatch, 23502 NOT NULL without a value
    if (['42703', '42P10', '42804', '23502', '42P01'].includes(code)) return 'table';
    if (code.startsWith('22')) return 'value'; // class 22: data exception
    return undefined;
  }
  if (d === 'mysql') {
    const n = typeof err.errno === 'number' ? err.errno : -1;
    // 1054 unknown column, 1364 no default, 1146 no such table
    if ([1054, 1364, 1146].includes(n)) return 'table';
    // 1264 out of range, 1366 incorrect value, 1292 truncated value, 1406 data too long, 1265 data truncated
    if ([1264, 1366, 1292, 1406, 1265].includes(n)) return 'value';
    return undefined;
  }
  const n = typeof err.number === 'number' ? err.number : -1;
  // 207 invalid column, 208 invalid object, 515 NULL into NOT NULL; 8115 overflow, 245/8114 conversion, 2628/8152 truncation
  if ([207, 208, 515].includes(n)) return 'table';
  if ([8115, 245, 8114, 2628, 8152, 220, 232].includes(n)) return 'value';
  return undefined;
}

/** MySQL, MS SQL: a double column holds no NaN or infinity (PostgreSQL does). */
export const holdsNonFinite = (d: SqlDialect): boolean => d === 'postgres';
