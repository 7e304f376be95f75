// The NoSQL test of the /db page (spec §2 service layout, §3 "NoSQL (pew_nosql)", §7
// get_nosqltest) on the saved pew_nosql settings. InfluxDB 1.x over its v1 HTTP API: the server
// answers /ping, the login holds, the database exists, the user may write into it (an empty write,
// which writes nothing: the technician's measurement is never touched) and the measurement takes
// the data points' field types (or does not exist yet). MongoDB with the official driver:
// the login holds, the database answers ping, the collection exists or is created, and one test
// document is inserted and deleted again. The section's timeout bounds every step.
import type { MongoClientOptions, MongoServerError } from 'mongodb';
import { INFLUX, type Nosql } from '../model/sections/nosql.ts';
import { type ServiceTestResult, testNote } from '../model/servicetest.ts';
import { influxFieldConflicts } from '../nosql/documents.ts';
import { pointColumns } from '../service-runtime/db-row.ts';
import { drivers } from './drivers.ts';
import { firstColumn, influxFailure, influxIdent, influxQuery, influxRequest, influxTarget } from './influx.ts';
import { probeTls, type TlsTrust, trustNote } from './net-probe.ts';
import { reachTcp } from './reach.ts';
import { classify, failureNote, runTest, StepFailure } from './test-run.ts';

export const MONGO_DEFAULT_PORT = 27017;
/** the marker of the MongoDB test document */
export const TEST_FIELD = 'communicator_test';

/** Runs the NoSQL test of the settings `n` (saved pew_nosql), with the section's CA `ca`. */
export function runNosqlTest(n: Nosql, ca: Buffer | undefined): Promise<ServiceTestResult> {
  return n.db_type === INFLUX ? runInfluxTest(n, ca) : runMongoTest(n, ca);
}

async function runInfluxTest(n: Nosql, ca: Buffer | undefined): Promise<ServiceTestResult> {
  const t0 = influxTarget(n, ca);
  const url = new URL(t0.base);
  const host = url.hostname;
  const port = Number(url.port);
  const ms = t0.ms;
  return runTest(t0.base, async (t) => {
    await t.step('connect', () => reachTcp(host, port), { ms, note: (address) => testNote('reached', { address }) });
    if (url.protocol === 'https:') {
      const trust = { ca: t0.ca, verify: t0.verify };
      await t.step('tls', () => probeTls(host, port, trust), { ms, note: (d) => trustNote(d, trust) });
    }
    await t.step(
      'request',
      async () => {
        const r = await influxRequest(t0, 'GET', '/ping', {});
        if (r.status !== 204 && r.status !== 200) throw influxFailure(r);
        const version = r.headers['x-influxdb-version'];
        if (version === undefined)
          throw failureNote(
            'bad_reply',
            testNote('not_influx_server', { status: r.status }),
            `HTTP ${r.status} without X-Influxdb-Version: not an InfluxDB server`,
          );
        return String(version);
      },
      { ms, note: (version) => testNote('influx_ping', { version }) },
    );
    if (n.user !== '') await t.step('login', () => influxQuery(t0, 'SHOW DATABASES'), { ms, note: () => testNote('login_as', { user: n.user }) });
    await t.step(
      'database',
      async () => {
        // SHOW MEASUREMENTS of a missing database is merely empty: the server's list decides
        const databases = firstColumn(await influxQuery(t0, 'SHOW DATABASES'));
        if (!databases.includes(n.instance_name))
          throw failureNote(
            'not_found',
            databases.length
              ? testNote('database_missing', { database: n.instance_name }, databases.join(', '))
              : testNote('database_missing_none', { database: n.instance_name }),
            `database not found: "${n.instance_name}" (the server has ${databases.length ? databases.join(', ') : 'none'})`,
          );
        return firstColumn(await influxQuery(t0, 'SHOW MEASUREMENTS', n.instance_name));
      },
      {
        ms,
        note: (m) => testNote('measurements', { database: n.instance_name, count: m.length }, `${m.slice(0, 10).join(', ')}${m.length > 10 ? ', …' : ''}`),
      },
    );
    // an empty write: the server checks that the database exists and that the user may write into
    // it, and writes nothing; a test point would stay in the measurement's field keys for good
    await t.step(
      'write',
      async () => {
        const r = await influxRequest(t0, 'POST', '/write', { db: n.instance_name, precision: 'ms' }, '');
        if (r.status !== 204 && r.status !== 200) throw influxFailure(r);
      },
      {
        ms,
        note: () =>
          n.user === '' ? testNote('influx_write', { database: n.instance_name }) : testNote('influx_write_user', { database: n.instance_name, user: n.user }),
      },
    );
    if (n.measurement === '') return;
    await t.step(
      'table',
      async () => {
        const series = await influxQuery(t0, `SHOW FIELD KEYS FROM ${influxIdent(n.measurement)}`, n.instance_name);
        const fields = series.flatMap((x) => (x.values ?? []).map((row) => [String(row[0]), String(row[1])] as const));
        const why = influxFieldConflicts(pointColumns(n.datalist), fields);
        if (why) throw new StepFailure('table_mismatch', `measurement ${n.measurement}: ${why}`);
        return fields;
      },
      {
        ms,
        note: (fields) =>
          fields.length
            ? testNote('table_exists', { table: n.measurement }, fields.map(([key, type]) => `${key} (${type})`).join(', '))
            : testNote('table_missing', { table: n.measurement }),
      },
    );
  });
}

/** host and port of the server field (`host`, `host:port`, `mongodb://host[:port]`). */
export function mongoAddress(server: string): { host: string; port: number } {
  const m = /^(?:mongodb:\/\/)?([^:/\s]+)(?::(\d{1,5}))?\/?$/.exec(server);
  if (!m) throw new RangeError(`not a MongoDB server: ${server}`);
  return { host: m[1]!, port: m[2] ? Number(m[2]) : MONGO_DEFAULT_PORT };
}

/** The reason of a driver error: server codes, else the network error under a failed server selection. */
export function mongoReason(e: unknown, ServerError: typeof MongoServerError): StepFailure {
  if (e instanceof StepFailure) return e;
  if (e instanceof ServerError) {
    // 18 AuthenticationFailed, 13 Unauthorized, 26 NamespaceNotFound
    if (e.code === 18 || e.code === 13 || e.codeName === 'AuthenticationFailed') return new StepFailure('auth_failed', e.message);
    if (e.code === 26) return new StepFailure('not_found', e.message);
    return new StepFailure('peer_error', e.message);
  }
  const servers = (e as { reason?: { servers?: Map<string, { error?: unknown }> } }).reason?.servers;
  for (const s of servers?.values() ?? []) {
    if (s.error) {
      const inner = mongoReason(s.error, ServerError);
      return new StepFailure(inner.reason, (e as Error).message || inner.message);
    }
  }
  let cause: unknown = e;
  for (let i = 0; i < 4 && cause; i++) {
    const f = classify(cause);
    if (f.reason !== 'peer_error') return new StepFailure(f.reason, classify(e).message);
    cause = (cause as { cause?: unknown }).cause;
  }
  return classify(e);
}

/** The driver's options for the saved settings (one connection, the section's TLS trust and login). */
export function mongoClient(
  n: Nosql,
  ca: Buffer | undefined,
  appName: string,
  MongoClient: typeof import('mongodb').MongoClient,
): import('mongodb').MongoClient {
  const { host, port } = mongoAddress(n.server);
  const ms = n.timeout * 1000;
  const trust: TlsTrust = { ca: n.ca_verification ? ca : undefined, verify: n.ca_verification };
  const options: MongoClientOptions = {
    directConnection: true,
    serverSelectionTimeoutMS: ms,
    connectTimeoutMS: ms,
    socketTimeoutMS: ms,
    maxPoolSize: 1,
    appName,
    ...(n.user !== '' ? { auth: { username: n.user, password: n.pass }, authSource: n.instance_name || 'admin' } : {}),
    ...(n.use_encryption
      ? { tls: true, ...(trust.ca ? { ca: trust.ca } : {}), tlsAllowInvalidCertificates: !trust.verify, tlsAllowInvalidHostnames: !trust.verify }
      : {}),
  };
  return new MongoClient(`mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`, options);
}

async function runMongoTest(n: Nosql, ca: Buffer | undefined): Promise<ServiceTestResult> {
  const { host, port } = mongoAddress(n.server);
  const ms = n.timeout * 1000;
  const trust: TlsTrust = { ca: n.ca_verification ? ca : undefined, verify: n.ca_verification };
  const { MongoClient, MongoServerError } = await drivers.mongodb();
  const client = mongoClient(n, ca, 'communicator-test', MongoClient);
  const guard = <T>(p: Promise<T>) =>
    p.catch((e: unknown) => {
      throw mongoReason(e, MongoServerError);
    });
  return runTest(`mongodb://${host}:${port}`, async (t) => {
    try {
      await t.step('connect', () => reachTcp(host, port), { ms, note: (address) => testNote('reached', { address }) });
      if (n.use_encryption) await t.step('tls', () => probeTls(host, port, trust), { ms, note: (d) => trustNote(d, trust) });
      await t.step('login', () => guard(client.connect()), {
        ms,
        note: () => (n.user !== '' ? testNote('login_as', { user: n.user }) : testNote('login_anonymous')),
      });
      const db = client.db(n.instance_name || 'test');
      await t.step('database', () => guard(db.command({ ping: 1 })), { ms, note: () => testNote('database_ping', { database: db.databaseName }) });
      if (n.collection === '') return;
      const exists = await t.step('table', async () => (await guard(db.listCollections({ name: n.collection }, { nameOnly: true }).toArray())).length > 0, {
        ms,
        note: (yes) => testNote(yes ? 'table_exists' : 'table_missing', { table: n.collection }),
      });
      await t.step(
        'write',
        async () => {
          const coll = db.collection(n.collection);
          const { insertedId } = await guard(coll.insertOne({ [TEST_FIELD]: true, at: new Date() }));
          const { deletedCount } = await guard(coll.deleteOne({ _id: insertedId }));
          if (deletedCount !== 1)
            throw failureNote(
              'bad_reply',
              testNote('document_not_deleted', { id: String(insertedId) }),
              `the test document ${String(insertedId)} was inserted but not deleted`,
            );
          return String(insertedId);
        },
        { ms, note: (id) => testNote(exists ? 'document_written' : 'document_written_created', { id, collection: n.collection }) },
      );
    } finally {
      await client.close(true).catch(() => {});
    }
  });
}
