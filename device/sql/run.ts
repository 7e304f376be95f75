// One run of the SQL client (spec §3 pew_sql, §9 SQL block of 6 words): the rows of the data
// points (service-runtime/db-run.ts) go into pew_sql.tablename through the driver of db_type
// (services/sql-test.ts opens the same sessions as the connection test). The table is made when
// it is missing and checked when it exists (table.ts, dialects.ts); rows go in batches, in order, each
// insert leaving out a key that is there already. A server that cannot be reached, refuses the
// login or holds a table that does not fit keeps the rows queued (back-off 1 s … 30 s); a value a
// column refuses drops that one row (error bad_value, logged with the row), never the batch.

import { errorOfFailure, type ServiceErrorName } from '../model/blocks/convention.ts';
import { SQL_BLOCK } from '../model/blocks/sql.ts';
import { SQL_OWN_COLUMNS } from '../model/sections/datapoint.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Sql } from '../model/sections/sql.ts';
import { columnsSignature, type DbRow, PointFault, sameColumnsPrefix } from '../service-runtime/db-row.ts';
import { DB_BATCH, DbRun, type DbRunDeps, type DbShared } from '../service-runtime/db-run.ts';
import type { JobEnd } from '../service-runtime/queue-run.ts';
import { SQL_DRIVERS, type SqlSession, sqlConnectOptions } from '../services/sql-test.ts';
import { createTable, DIALECT_OF, holdsNonFinite, insertRows, rowsPerStatement, type SqlDialect, sqlErrorKind } from './dialects.ts';
import { planTable, TableMismatch } from './table.ts';

export const SQL_USER = 'sql';

export interface SqlRunDeps extends DbRunDeps {
  /** the section's CA when the server's certificate is verified */
  ca: Buffer | undefined;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class SqlRun extends DbRun {
  protected readonly reserved = SQL_OWN_COLUMNS;
  readonly dialect: SqlDialect;
  private session: SqlSession | undefined;
  /** column sets whose table is known to fit */
  private ready = new Set<string>();

  constructor(
    deps: SqlRunDeps,
    shared: DbShared,
    private readonly s: Sql,
    pew: Pew,
  ) {
    super(deps, shared, SQL_BLOCK, s, pew, SQL_USER);
    this.dialect = DIALECT_OF[s.db_type];
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.session?.close().catch(() => undefined);
    this.session = undefined;
  }

  protected extraWords(): Record<string, number> {
    return this.queueWords();
  }

  protected check(row: DbRow): void {
    if (holdsNonFinite(this.dialect)) return;
    row.values.forEach((v, i) => {
      const db = this.dialect === 'mysql' ? 'MySQL/MariaDB' : 'MS SQL';
      if (typeof v === 'number' && !Number.isFinite(v)) throw new PointFault('bad_value', `${row.columns[i]![0]}: ${v} does not fit a ${db} column`, i);
    });
  }

  protected async write(rows: readonly DbRow[]): Promise<JobEnd[] | undefined> {
    const sig = columnsSignature(rows[0]!);
    const n = rowsPerStatement(this.dialect, rows[0]!.columns.length, DB_BATCH);
    const batch = sameColumnsPrefix(rows.slice(0, n));
    try {
      const session = await this.open();
      if (!this.ready.has(sig)) {
        await this.prepare(session, batch[0]!);
        this.ready.add(sig);
      }
      try {
        await session.query(insertRows(this.dialect, this.s.tablename, batch));
        return batch.map(() => ({}));
      } catch (e) {
        if (sqlErrorKind(this.dialect, e) !== 'value') throw e;
        return await this.oneByOne(session, batch);
      }
    } catch (e) {
      return this.failed(e, sig);
    }
  }

  /** A value a column refused: the rows alone, so only the row that holds it is refused. */
  private async oneByOne(session: SqlSession, rows: readonly DbRow[]): Promise<JobEnd[] | undefined> {
    const ends: JobEnd[] = [];
    for (const row of rows) {
      try {
        await session.query(insertRows(this.dialect, this.s.tablename, [row]));
        ends.push({});
      } catch (e) {
        if (sqlErrorKind(this.dialect, e) !== 'value') return ends.length ? ends : this.failed(e, columnsSignature(row));
        this.deps.log.error('sql: a row the table refuses is not written', { key: row.key, values: JSON.stringify(row.values), error: errorText(e) });
        ends.push({ error: { code: 'bad_value', message: `row ${row.key}: ${errorText(e)}` } });
      }
    }
    return ends;
  }

  private async open(): Promise<SqlSession> {
    if (this.session) return this.session;
    const driver = SQL_DRIVERS[this.s.db_type];
    this.session = await driver.open(sqlConnectOptions(this.s, (this.deps as SqlRunDeps).ca));
    return this.session;
  }

  /** Creates the table when it is missing (table.ts decides); checks an existing one, or the one just made. */
  private async prepare(session: SqlSession, row: DbRow): Promise<void> {
    const table = this.s.tablename;
    if ((await planTable(session, this.dialect, table, row)).exists) return;
    await session.query(createTable(this.dialect, table, row));
    this.deps.log.info('sql: table created', { table, columns: row.columns.length + 2 });
    if (!(await planTable(session, this.dialect, table, row)).exists) throw new TableMismatch(`table ${table} was created but the server does not show it`);
  }

  /** Not written: why, and the session closed when the failure may have left it unusable. */
  private failed(e: unknown, sig: string): undefined {
    let code: Exclude<ServiceErrorName, 'none'>;
    if (e instanceof TableMismatch || sqlErrorKind(this.dialect, e) === 'table') {
      code = 'table_mismatch';
      this.ready.delete(sig);
    } else {
      const c = errorOfFailure(SQL_DRIVERS[this.s.db_type].reason(e).reason);
      code = c === 'none' ? 'other' : c;
      const s = this.session;
      this.session = undefined;
      void s?.close().catch(() => undefined);
    }
    return this.notDelivered(code, errorText(e));
  }
}
