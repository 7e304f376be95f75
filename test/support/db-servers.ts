// Test support: real database servers on 127.0.0.1 for the SQL and NoSQL tests and their bench
// (reference/peers.md): PostgreSQL 15, MariaDB and InfluxDB 1.x, each in its own temp folder on
// free ports from the kernel, with a test user that has a password (so a wrong one fails), a
// database and a table; stopped and removed again by `stop()`. PostgreSQL and MariaDB refuse to
// run as root: their folders belong to postgres / mysql and they run as those users.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { type InfluxTarget, influxRequest } from '../../device/services/influx.ts';
import { freePort, freePorts, LOOPBACK } from './ports.ts';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * The account the tests log in with, its database and the table the SQL test looks for: it has the
 * columns the SQL client writes for a row without data points (time_stamp, row_key: device/sql/table.ts)
 * and two of its own, so the test passes with no data points and names what is missing with some.
 */
export const DB_USER = 'tester';
export const DB_PASSWORD = 'T3st-Passw0rd';
export const DB_NAME = 'plantdata';
export const DB_TABLE = 'readings';
export const DB_COLUMNS = ['time_stamp', 'row_key', 'value', 'note'];

export interface DbServer {
  host: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** A MariaDB server; `socket` takes root without a password (the set-up's own way in). */
export interface MariadbServer extends DbServer {
  socket: string;
}

/** A PostgreSQL server that can also be stopped for a while and started again on its port and data. */
export interface PostgresServer extends DbServer {
  /** stops the server at once (pg_ctl -m immediate: like a crash), keeping its data */
  halt(): Promise<void>;
  resume(): Promise<void>;
  /** a client as the database's owner over the local socket */
  owner(): Promise<pg.Client>;
}

async function ownedTempDir(prefix: string, user: string): Promise<{ dir: string; uid: number; gid: number }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const { stdout } = await run('id', ['-u', user]);
  const { stdout: g } = await run('id', ['-g', user]);
  const uid = Number(stdout.trim());
  const gid = Number(g.trim());
  await chown(dir, uid, gid);
  return { dir, uid, gid };
}

/** Runs `cmd` as `user` (runuser when we are root, directly otherwise). */
function asUser(user: string, cmd: string, args: string[]) {
  return userInfo().uid === 0 ? run('runuser', ['-u', user, '--', cmd, ...args], { timeout: 120_000 }) : run(cmd, args, { timeout: 120_000 });
}

async function waitFor(what: string, fn: () => Promise<unknown>, ms: number, child?: ChildProcess, log?: string): Promise<void> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    if (child && child.exitCode !== null) break;
    try {
      await fn();
      return;
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const tail = log ? (await readFile(log, 'utf8').catch(() => '')).slice(-2000) : '';
  throw new Error(`${what} did not start: ${String(last)}${tail ? `\n${tail}` : ''}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export interface PostgresOptions {
  /** PEM certificate and key: the server starts with ssl=on */
  tls?: { cert: string; key: string };
}

/**
 * PostgreSQL 15: initdb (local socket trust for the set-up, TCP with scram-sha-256), pg_ctl on a
 * free port, then the test user, its database and table.
 */
export async function startPostgres(opts: PostgresOptions = {}): Promise<PostgresServer> {
  const { dir, uid, gid } = await ownedTempDir('pg-', 'postgres');
  const data = join(dir, 'data');
  const pw = join(dir, 'pw');
  await writeFile(pw, 'Sup3r-Passw0rd\n');
  await chown(pw, uid, gid);
  await asUser('postgres', join(PG_BIN, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    `--pwfile=${pw}`,
    '--no-sync',
  ]);
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${dir}`, `-c listen_addresses=${LOOPBACK}`, '-c fsync=off', '-c shared_buffers=16MB', '-c max_connections=20'];
  if (opts.tls) {
    for (const [name, pem] of [
      ['server.crt', opts.tls.cert],
      ['server.key', opts.tls.key],
    ] as const) {
      const f = join(data, name);
      await writeFile(f, pem);
      await chown(f, uid, gid);
      await chmod(f, 0o600);
    }
    settings.push('-c ssl=on', '-c ssl_cert_file=server.crt', '-c ssl_key_file=server.key');
  }
  const log = join(dir, 'log');
  const resume = async () => {
    try {
      await asUser('postgres', join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', settings.join(' '), '-l', log, '-w', '-t', '60', 'start']);
    } catch (e) {
      throw new Error(`PostgreSQL did not start: ${String(e)}\n${await readFile(log, 'utf8').catch(() => '')}`);
    }
  };
  await resume();
  const halt = async () => {
    await asUser('postgres', join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
  };
  const stop = async () => {
    await halt();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const admin = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASSWORD}'`);
    await admin.query(`CREATE DATABASE ${DB_NAME} OWNER ${DB_USER}`);
    await admin.end();
    const owner = new pg.Client({ host: dir, port, user: DB_USER, database: DB_NAME });
    await owner.connect();
    await owner.query(`CREATE TABLE ${DB_TABLE} (time_stamp timestamptz(3) NOT NULL, row_key varchar(40) PRIMARY KEY, value double precision, note text)`);
    await owner.end();
  } catch (e) {
    await stop();
    throw e;
  }
  const owner = async () => {
    const c = new pg.Client({ host: dir, port, user: DB_USER, database: DB_NAME });
    await c.connect();
    return c;
  };
  return { host: LOOPBACK, port, dir, stop, halt, resume, owner };
}

/** MariaDB: mariadb-install-db, mariadbd on a free port and its own socket, then the test user, database and table. */
export async function startMariadb(opts: { tls?: { cert: string; key: string } } = {}): Promise<MariadbServer> {
  const { dir, uid, gid } = await ownedTempDir('mariadb-', 'mysql');
  const data = join(dir, 'data');
  await run('mariadb-install-db', ['--no-defaults', '--user=mysql', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db'], {
    timeout: 120_000,
  });
  const port = await freePort();
  const socket = join(dir, 's.sock');
  const log = join(dir, 'err.log');
  const tls: string[] = [];
  if (opts.tls) {
    for (const [name, pem] of Object.entries({ 'server.crt': opts.tls.cert, 'server.key': opts.tls.key })) {
      await writeFile(join(dir, name), pem, { mode: 0o600 });
      await chown(join(dir, name), uid, gid);
    }
    tls.push(`--ssl-cert=${join(dir, 'server.crt')}`, `--ssl-key=${join(dir, 'server.key')}`);
  }
  const child = spawn(
    'mariadbd',
    [
      '--no-defaults',
      '--user=mysql',
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--port=${port}`,
      `--bind-address=${LOOPBACK}`,
      `--pid-file=${join(dir, 'pid')}`,
      `--log-error=${log}`,
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=16M',
      '--skip-log-bin',
      '--innodb-flush-log-at-trx-commit=0',
      '--max-connections=20',
      ...tls,
    ],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('MariaDB', async () => (await mysql.createConnection({ socketPath: socket, user: 'root' })).end(), 60_000, child, log);
    const root = await mysql.createConnection({ socketPath: socket, user: 'root', multipleStatements: true });
    await root.query(
      `CREATE USER '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}';` +
        `CREATE DATABASE ${DB_NAME};` +
        `GRANT ALL ON ${DB_NAME}.* TO '${DB_USER}'@'%';` +
        `GRANT SELECT ON *.* TO '${DB_USER}'@'%';` + // a global right: an unknown database is then "Unknown database", not "Access denied"
        `CREATE TABLE ${DB_NAME}.${DB_TABLE} (time_stamp DATETIME(3) NOT NULL, row_key VARCHAR(40) PRIMARY KEY, value DOUBLE, note TEXT);`,
    );
    await root.end();
  } catch (e) {
    await stop();
    throw e;
  }
  return { host: LOOPBACK, port, dir, socket, stop };
}

/**
 * InfluxDB 1.x: a config with every port on 127.0.0.1 and temp folders, reporting off; the database
 * DB_NAME created. With `auth`, logins are required: DB_USER with DB_PASSWORD is its administrator.
 * With `tls` (PEM certificate and key, and the CA that signed it) it answers HTTPS only.
 */
export async function startInflux(opts: { auth?: boolean; tls?: { cert: string; key: string; ca: string } } = {}): Promise<DbServer> {
  const dir = await mkdtemp(join(tmpdir(), 'influx-'));
  const [rpc, port] = (await freePorts(2)) as [number, number];
  const conf = join(dir, 'influxdb.conf');
  const https: string[] = [];
  if (opts.tls) {
    await writeFile(join(dir, 'cert.pem'), opts.tls.cert);
    await writeFile(join(dir, 'key.pem'), opts.tls.key);
    https.push('  https-enabled = true', `  https-certificate = "${join(dir, 'cert.pem')}"`, `  https-private-key = "${join(dir, 'key.pem')}"`);
  }
  await writeFile(
    conf,
    [
      'reporting-disabled = true',
      `bind-address = "${LOOPBACK}:${rpc}"`,
      '[meta]',
      `  dir = "${join(dir, 'meta')}"`,
      '[data]',
      `  dir = "${join(dir, 'data')}"`,
      `  wal-dir = "${join(dir, 'wal')}"`,
      '  query-log-enabled = false',
      '[monitor]',
      '  store-enabled = false',
      '[http]',
      '  enabled = true',
      `  bind-address = "${LOOPBACK}:${port}"`,
      '  log-enabled = false',
      `  auth-enabled = ${opts.auth === true}`,
      ...https,
      '[continuous_queries]',
      '  enabled = false',
      '',
    ].join('\n'),
  );
  const log = join(dir, 'log');
  await writeFile(log, '');
  const child = spawn('influxd', ['-config', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (c: Buffer) => void writeFile(log, c, { flag: 'a' }).catch(() => {}));
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  const target: InfluxTarget = {
    base: `${opts.tls ? 'https' : 'http'}://${LOOPBACK}:${port}`,
    user: '',
    password: '',
    ca: opts.tls ? Buffer.from(opts.tls.ca) : undefined,
    verify: true,
    ms: 5000,
  };
  try {
    await waitFor(
      'InfluxDB',
      async () => {
        const r = await influxRequest(target, 'GET', '/ping', {});
        if (r.status !== 204) throw new Error(`ping ${r.status}`);
      },
      60_000,
      child,
      log,
    );
    // with auth on, the first user may be created without a login and must be an administrator
    const statements = [...(opts.auth ? [`CREATE USER ${DB_USER} WITH PASSWORD '${DB_PASSWORD}' WITH ALL PRIVILEGES`] : []), `CREATE DATABASE ${DB_NAME}`];
    const login: Record<string, string> = opts.auth ? { u: DB_USER, p: DB_PASSWORD } : {};
    for (const q of statements) {
      const r = await influxRequest(target, 'POST', '/query', { q, ...login });
      if (r.status !== 200 || r.body.includes('"error"')) throw new Error(`${q}: ${r.status} ${r.body}`);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { host: LOOPBACK, port, dir, stop };
}
