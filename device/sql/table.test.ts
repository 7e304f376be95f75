// What the SQL client does with its table (table.ts), over a session that answers like a server's
// information schema: the same plan for the runtime and the connection test, on every dialect (MS
// SQL has no server on these machines).
import { describe, expect, it } from 'vitest';
import type { SqlSession } from '../services/sql-test.ts';
import type { SqlStatement } from './dialects.ts';
import { planTable, TableMismatch } from './table.ts';

/** A session whose information schema holds `columns` (none: no such table) and, for MySQL, whether row_key is unique. */
function session(columns: [string, string][], unique = true): SqlSession & { asked: SqlStatement[] } {
  const asked: SqlStatement[] = [];
  return {
    asked,
    info: async () => ({ database: 'd', version: 'v' }),
    tls: () => undefined,
    close: async () => {},
    query: async (st) => {
      asked.push(st);
      if (/STATISTICS/.test(st.sql)) return [{ n: unique ? 1 : 0 }];
      return columns.map(([name, type]) => ({ name, type }));
    },
  };
}

const row = { columns: [['level', 'f64'] as [string, 'f64']] };
const fitting: [string, string][] = [
  ['time_stamp', 'timestamp with time zone'],
  ['row_key', 'character varying'],
  ['level', 'double precision'],
];

describe('planTable', () => {
  it('a missing table: the first row creates it with the time stamp, the key and one column a point; nothing is asked to change', async () => {
    for (const d of ['postgres', 'mysql', 'mssql'] as const) {
      const s = session([]);
      expect(await planTable(s, d, 'tank_log', row)).toEqual({ exists: false, columns: ['time_stamp', 'row_key', 'level'] });
      expect(s.asked.every((st) => /^SELECT /.test(st.sql))).toBe(true);
    }
  });

  it('an existing table that fits: used, its columns named', async () => {
    expect(await planTable(session(fitting), 'postgres', 'tank_log', row)).toEqual({ exists: true, columns: ['time_stamp', 'row_key', 'level'] });
  });

  it('a column missing or of another kind, or (MySQL) a row key that is not unique: TableMismatch', async () => {
    await expect(planTable(session(fitting.slice(0, 2)), 'postgres', 'tank_log', row)).rejects.toThrow(
      new TableMismatch('table tank_log does not fit the data points: no column level'),
    );
    await expect(planTable(session([...fitting.slice(0, 2), ['level', 'text']]), 'mssql', 't', row)).rejects.toBeInstanceOf(TableMismatch);
    await expect(planTable(session(fitting, false), 'mysql', 't', row)).rejects.toThrow(/row_key is not a unique key/);
  });
});
