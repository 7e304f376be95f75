// The run shape the SQL and NoSQL clients share (queue-run.ts with rows as jobs): a row of the
// data points on the PLC's request (request word 1) and, with insertWithoutPLC, one every plc_poll
// seconds; rows leave the queue in order, in batches; a row the database cannot hold is refused
// before it is queued (error code in the block, the point named in the status). A subclass says
// how a batch of rows is written and what its database refuses.

import type { Clock } from '../../hw/types.ts';
import { interfaceProtocol, readLimit } from '../logger/planner.ts';
import type { ControlBlock } from '../model/blocks/convention.ts';
import { TRANSPARENT } from '../model/plc.ts';
import type { DataPoint } from '../model/sections/datapoint.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import { columnsSignature, type DbRow, PointFault, readRow, sameColumnsPrefix } from './db-row.ts';
import { RequestFault } from './plc-text.ts';
import type { QueuedJob } from './queue.ts';
import { type JobEnd, QueueRun, type QueueRunDeps, type QueueShared } from './queue-run.ts';

/** rows one statement (or one write) carries at most */
export const DB_BATCH = 100;
/** rows a database client's queue holds: more than a day of one row a second (other services: QUEUE_BOUND) */
export const DB_QUEUE_BOUND = 100_000;

export type DbCounter = 'rows' | 'written';

export interface DbShared extends QueueShared<DbRow, DbCounter> {
  /** the data point (1-based) the last refused row stumbled on, 0 = none */
  errorPoint: number;
}

/** The fields of pew_sql and pew_nosql a run reads its rows with. */
export interface DbSource {
  plc_control_dt: number;
  plc_poll: number;
  insertWithoutPLC: boolean;
  interface: number;
  plc_addr: number;
  datalist: DataPoint[];
}

export interface DbRunDeps extends QueueRunDeps {
  clock: Clock;
  log: Logger;
}

export abstract class DbRun extends QueueRun<DbRow, DbCounter> {
  protected readonly doneCounter = 'rows';
  private lastAt = 0;

  constructor(
    protected readonly deps: DbRunDeps,
    protected readonly db: DbShared,
    block: ControlBlock,
    protected readonly src: DbSource,
    private readonly pewNow: Pew,
    user: string,
  ) {
    super(deps, db, block, src.plc_control_dt, src.plc_poll, pewNow, user);
  }

  /** Point names the database keeps for itself (its time stamp and key columns, InfluxDB's time). */
  protected abstract readonly reserved: readonly string[];
  /** Throws a PointFault for a value this database cannot hold. */
  protected abstract check(row: DbRow): void;
  /** Writes rows that share their columns (in order); their ends, or undefined when the database cannot be reached. */
  protected abstract write(rows: readonly DbRow[]): Promise<JobEnd[] | undefined>;

  protected override get batchSize(): number {
    return DB_BATCH;
  }

  /** a permanent failure (a table that does not fit) is the columns', not one row's: counted and moved per column set */
  protected override failKey(job: QueuedJob<DbRow>): string {
    return columnsSignature(job.job);
  }

  protected override failedSpan(rows: readonly DbRow[]): number {
    return sameColumnsPrefix(rows).length;
  }

  protected override pollsJobs(): boolean {
    return this.src.insertWithoutPLC;
  }

  protected override pollJob(): Promise<DbRow> {
    return this.row();
  }

  protected jobOf(b: Record<string, number>): Promise<DbRow> {
    if (b.request !== 1) return Promise.reject(new RequestFault('bad_request', `request ${b.request} is not 1 (insert a row)`));
    return this.row();
  }

  protected override refused(fault: RequestFault): void {
    this.db.errorPoint = fault instanceof PointFault ? fault.point + 1 : 0;
  }

  protected send(job: DbRow): Promise<JobEnd | undefined> {
    return this.write([job]).then((ends) => ends?.[0]);
  }

  protected override async sendBatch(jobs: readonly DbRow[]): Promise<JobEnd[] | undefined> {
    const ends = await this.write(jobs);
    if (ends) this.shared.book.count('written', ends.filter((e) => !e.error).length);
    return ends;
  }

  protected queueWords(): Record<string, number> {
    return { queue_waiting: Math.min(this.db.queue.waiting, 0xffff), queue_dropped: Math.min(this.db.queue.dropped, 0xffff) };
  }

  private async row(): Promise<DbRow> {
    const s = this.src;
    this.db.errorPoint = 0;
    if (s.datalist.length === 0) throw new RequestFault('bad_request', 'the data point list is empty');
    const it = this.pewNow.interfaces.find((i) => i.id === s.interface);
    if (it?.service === TRANSPARENT) {
      throw new RequestFault('bad_request', `interface ${s.interface} is transparent: data points cannot be read through it (spec §5)`);
    }
    const link = this.deps.links.get(s.interface);
    if (!link) throw new RequestFault('bad_request', `interface ${s.interface} is not enabled: the data points cannot be read`);
    s.datalist.forEach((p, i) => {
      if (this.reserved.includes(p.name.toLowerCase())) throw new PointFault('bad_request', `${p.name}: the name is the database's own column`, i);
    });
    // strictly increasing time stamps: InfluxDB's point key is the time, and rows keep their order
    const at = Math.max(this.deps.clock.now(), this.lastAt + 1);
    this.lastAt = at;
    const row = await readRow(
      {
        points: s.datalist,
        interfaceId: s.interface,
        station: s.plc_addr,
        limitOf: (id, area) => readLimit(interfaceProtocol(this.pewNow, id), area),
        readWords: (area, start, count) => link.readWords(area, start, count, this.user, s.plc_addr),
      },
      at,
    );
    this.check(row);
    return row;
  }
}
