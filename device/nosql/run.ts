// One run of the NoSQL client (spec §3 pew_nosql, §9 NoSQL block of 10 words): the rows of the data
// points (service-runtime/db-run.ts) as InfluxDB 1.x points over its HTTP /write API (the section's
// TLS trust, services/influx.ts) or as MongoDB documents with the official driver (documents.ts).
// A database that cannot be reached, refuses the login or holds other field types keeps the rows
// queued (back-off 1 s … 30 s); a row the database refuses for its values is dropped alone
// (bad_value, logged with the row). A replay is harmless: InfluxDB's point key and MongoDB's _id.
import type { MongoClient } from 'mongodb';
import { errorOfFailure, type ServiceErrorName } from '../model/blocks/convention.ts';
import { NOSQL_BLOCK } from '../model/blocks/nosql.ts';
import { INFLUX, type Nosql, nosqlOwnColumns, usedTag } from '../model/sections/nosql.ts';
import type { Pew } from '../model/sections/pew.ts';
import { type DbRow, PointFault, sameColumnsPrefix } from '../service-runtime/db-row.ts';
import { DbRun, type DbRunDeps, type DbShared } from '../service-runtime/db-run.ts';
import type { JobEnd } from '../service-runtime/queue-run.ts';
import { drivers } from '../services/drivers.ts';
import { type InfluxReply, type InfluxTarget, influxFailure, influxRequest, influxTarget } from '../services/influx.ts';
import { mongoClient, mongoReason } from '../services/nosql-test.ts';
import { classify } from '../services/test-run.ts';
import { influxLine, influxRefusal, mongoDocument } from './documents.ts';

export const NOSQL_USER = 'nosql';
/** MongoDB's duplicate key: the row is there from before a kill */
const DUPLICATE_KEY = 11000;

export interface NosqlRunDeps extends DbRunDeps {
  ca: Buffer | undefined;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** What a write's failure means for the rows. */
type Outcome = { wait: Exclude<ServiceErrorName, 'none'>; message: string } | { values: string };

export class NosqlRun extends DbRun {
  protected readonly reserved: readonly string[];
  private readonly influx: InfluxTarget | undefined;
  private mongo: MongoClient | undefined;

  constructor(
    deps: NosqlRunDeps,
    shared: DbShared,
    private readonly n: Nosql,
    pew: Pew,
  ) {
    super(deps, shared, NOSQL_BLOCK, n, pew, NOSQL_USER);
    this.influx = n.db_type === INFLUX ? influxTarget(n, deps.ca) : undefined;
    this.reserved = nosqlOwnColumns(n);
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.mongo?.close(true).catch(() => undefined);
    this.mongo = undefined;
  }

  protected extraWords(): Record<string, number> {
    const written = this.db.book.counters.written;
    const oldest = this.db.queue.head(1)[0]?.job.at;
    const waited = oldest === undefined ? 0 : Math.max(0, Math.floor((this.deps.clock.now() - oldest) / 1000));
    return {
      ...this.queueWords(),
      written_low: written & 0xffff,
      written_high: Math.floor(written / 0x10000) & 0xffff,
      error_point: this.db.errorPoint,
      oldest_wait: Math.min(waited, 0xffff),
    };
  }

  protected check(row: DbRow): void {
    if (!this.influx) return;
    row.columns.forEach(([name, kind], i) => {
      const why = influxRefusal(kind, row.values[i]!);
      if (why) throw new PointFault('bad_value', `${name}: ${why}`, i);
    });
  }

  protected async write(rows: readonly DbRow[]): Promise<JobEnd[] | undefined> {
    const batch = sameColumnsPrefix(rows);
    const first = await this.send1(batch);
    if (first === undefined) return batch.map(() => ({}));
    if ('wait' in first) return this.notDelivered(first.wait, first.message);
    // a value the database refused: the rows alone, so only the row that holds it is dropped
    const ends: JobEnd[] = [];
    for (const row of batch) {
      const r = batch.length === 1 ? first : await this.send1([row]);
      if (r === undefined) ends.push({});
      else if ('wait' in r) return ends.length ? ends : this.notDelivered(r.wait, r.message);
      else {
        this.deps.log.error('nosql: a row the database refuses is not written', { key: row.key, values: JSON.stringify(row.values), error: r.values });
        ends.push({ error: { code: 'bad_value', message: `row ${row.key}: ${r.values}` } });
      }
    }
    return ends;
  }

  /** Writes the rows; undefined when written. */
  private send1(rows: readonly DbRow[]): Promise<Outcome | undefined> {
    return this.influx ? this.writeInflux(this.influx, rows) : this.writeMongo(rows);
  }

  private async writeInflux(t: InfluxTarget, rows: readonly DbRow[]): Promise<Outcome | undefined> {
    const body = `${rows.map((r) => influxLine(this.n.measurement, usedTag(this.n), r)).join('\n')}\n`;
    let reply: InfluxReply;
    try {
      reply = await influxRequest(t, 'POST', '/write', { db: this.n.instance_name, precision: 'ms' }, body);
    } catch (e) {
      return this.waitFor(errorOfFailure(classify(e).reason), errorText(e));
    }
    if (reply.status === 204 || reply.status === 200) return undefined;
    const f = influxFailure(reply);
    if (reply.status === 400 && /field type conflict/i.test(f.message)) {
      return { wait: 'table_mismatch', message: `measurement ${this.n.measurement}: ${f.message}` };
    }
    if (reply.status === 400 && /beyond retention policy/i.test(f.message)) {
      // the server took the write and keeps none of these points (older than its retention): nothing to try again
      this.deps.log.warn('nosql: InfluxDB dropped points older than its retention policy', { error: f.message });
      return undefined;
    }
    if (reply.status === 400) return { values: f.message };
    return this.waitFor(f.reason === 'not_found' ? 'server_refused' : errorOfFailure(f.reason), f.message);
  }

  private async writeMongo(rows: readonly DbRow[]): Promise<Outcome | undefined> {
    const m = await drivers.mongodb();
    try {
      this.mongo ??= mongoClient(this.n, (this.deps as NosqlRunDeps).ca, 'communicator', m.MongoClient);
      const coll = this.mongo.db(this.n.instance_name || 'test').collection(this.n.collection);
      await coll.insertMany(rows.map((r) => mongoDocument(m.BSON, r)) as never[], { ordered: false });
      return undefined;
    } catch (e) {
      if (e instanceof m.MongoBulkWriteError) {
        // the driver wraps a broken connection in the same error, with no write errors: only when
        // every row is accounted for (inserted, or its _id there already) were they all written
        const errors = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
        const other = errors.filter((w) => w.code !== DUPLICATE_KEY);
        if (other.length === 0 && errors.length > 0 && e.insertedCount + errors.length === rows.length) return undefined;
        if (other.length > 0 && other.every((w) => w.code === 121)) return { values: other[0]!.errmsg ?? 'document failed validation' };
      }
      const s = this.mongo;
      this.mongo = undefined;
      void s?.close(true).catch(() => undefined);
      const f = mongoReason(e, m.MongoServerError);
      return this.waitFor(errorOfFailure(f.reason), f.message);
    }
  }

  private waitFor(code: ServiceErrorName, message: string): Outcome {
    return { wait: code === 'none' ? 'other' : code, message };
  }
}
