// What the SQL client does with pew_sql.tablename (docs/services.md "The table"): a missing table
// is created with the first row; an existing one is used when it has every column of the rows with
// a fitting type (and, on MySQL/MariaDB, row_key as a unique key); otherwise the rows wait with
// table_mismatch. One home for that decision: the runtime (run.ts) acts on it, the connection test
// (services/sql-test.ts) reports it, so the test passes exactly where the runtime would work.
import type { DbRow } from '../service-runtime/db-row.ts';
import type { SqlSession } from '../services/sql-test.ts';
import { KEY_COLUMN, keyUnique, rowColumns, type SqlDialect, tableColumns, tableMismatch } from './dialects.ts';

/** The table does not take the rows: they wait until it is changed (or the settings are). */
export class TableMismatch extends Error {}

export type TablePlan =
  /** the table does not exist: the first row creates it with these columns */
  | { exists: false; columns: string[] }
  /** the table exists and takes the rows; its columns */
  | { exists: true; columns: string[] };

/**
 * The plan for rows like `row` in `table`, asked of the server (information schema; nothing
 * written). Throws TableMismatch when the table exists and does not take them.
 */
export async function planTable(session: SqlSession, d: SqlDialect, table: string, row: Pick<DbRow, 'columns'>): Promise<TablePlan> {
  const existing = (await session.query(tableColumns(d, table))).map((c) => ({ name: String(c.name), type: String(c.type) }));
  if (existing.length === 0) return { exists: false, columns: rowColumns(row) };
  const why = tableMismatch(row, existing);
  if (why) throw new TableMismatch(`table ${table} does not fit the data points: ${why}`);
  if (d === 'mysql' && Number((await session.query(keyUnique(table)))[0]?.n ?? 0) === 0) {
    throw new TableMismatch(`table ${table}: ${KEY_COLUMN} is not a unique key (a replayed row could be written twice)`);
  }
  return { exists: true, columns: existing.map((c) => c.name) };
}
