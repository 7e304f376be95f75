// Peer-side samples for the example downloads: what the technician sets up on the other end
// (broker, database, test tools). Every name, port and type comes from the example settings or
// the section modules, so a sample always matches the settings.json beside it.
import type { DataPoint } from '../model/sections/datapoint.ts';
import { influxLine } from '../nosql/documents.ts';
import { pointColumns } from '../service-runtime/db-row.ts';
import { createTable, quoteIdent, quoteTable } from '../sql/dialects.ts';

export interface PeerFile {
  name: string;
  data: string;
}

export function mosquittoConf(host: string, port: number, user: string): PeerFile {
  return {
    name: 'mosquitto.conf',
    data: `# mosquitto 2.x: a TLS listener with password login for the unit (${host}:${port}).
# Create the password file first: mosquitto_passwd -c /etc/mosquitto/passwd ${user}
listener ${port}
cafile /etc/mosquitto/certs/ca.crt
certfile /etc/mosquitto/certs/server.crt
keyfile /etc/mosquitto/certs/server.key
allow_anonymous false
password_file /etc/mosquitto/passwd
`,
  };
}

/** The client the technician runs a create script with, and its first lines. */
const SQL_SCRIPT: Record<'mysql' | 'postgres', { name: string; run: string }> = {
  mysql: { name: 'create_table.sql', run: 'mysql -h <server> -u root -p < create_table.sql' },
  postgres: { name: 'create_table_postgresql.sql', run: 'psql -h <server> -U postgres -f create_table_postgresql.sql' },
};
export const sqlScriptRun = (d: keyof typeof SQL_SCRIPT) => SQL_SCRIPT[d].run;

/**
 * The database, table and login of settings.json for MySQL/MariaDB or PostgreSQL. The table is the
 * one the unit would create itself (device/sql/dialects.ts createTable: time_stamp, row_key, one
 * column per data point typed as the unit writes it), so it fits the unit's check of an existing
 * table; the login gets what the unit does with it: read the table's description, insert rows and,
 * on MySQL/MariaDB, skip a replayed row (INSERT … ON DUPLICATE KEY UPDATE needs UPDATE).
 */
export function createTableSql(d: 'mysql' | 'postgres', db: string, table: string, user: string, points: readonly DataPoint[]): PeerFile {
  const create = `${createTable(d, table, { columns: pointColumns(points) }).sql};`;
  const head = `-- ${d === 'mysql' ? 'MySQL/MariaDB' : 'PostgreSQL'}: the database, table and login of settings.json, one column per data point
-- (column name = data point name) after time_stamp (when the values were read, UTC) and row_key
-- (unique: a row sent again after a power loss is never written twice).
-- The unit creates this same table itself when it is missing and its login may create tables;
-- this script lets the login do no more than it needs. Run as an administrator:
--   ${SQL_SCRIPT[d].run}`;
  const data =
    d === 'mysql'
      ? `${head}
CREATE DATABASE IF NOT EXISTS ${quoteIdent(d, db)};
USE ${quoteIdent(d, db)};
${create}
CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY 'choose-a-password';
GRANT SELECT, INSERT, UPDATE ON ${quoteIdent(d, db)}.${quoteTable(d, table)} TO '${user}'@'%';
`
      : `${head}
-- (psql goes on after an error: a role or database that exists already is kept)
CREATE ROLE ${quoteIdent(d, user)} LOGIN PASSWORD 'choose-a-password';
CREATE DATABASE ${quoteIdent(d, db)};
\\connect ${db}
${create}
GRANT SELECT, INSERT ON ${quoteTable(d, table)} TO ${quoteIdent(d, user)};
`;
  return { name: SQL_SCRIPT[d].name, data };
}

/** One point as the unit writes it (device/nosql/documents.ts influxLine: integer fields with i, time in ms). */
export function influxSample(measurement: string, tag: [string, string], points: readonly DataPoint[], samples: readonly number[], time: Date): PeerFile {
  const columns = pointColumns(points);
  const line = influxLine(measurement, { name: tag[0], value: tag[1] }, { key: '', at: time.getTime(), columns, values: [...samples] });
  return {
    name: 'sample.lp',
    data: `# InfluxDB line protocol: one point as the unit writes it for the settings.json example
# (measurement ${measurement}, tag ${tag[0]}=${tag[1]}, one field per data point typed as the unit
# types it: whole-number types as integers (…i), REAL as floating point; time in ms: precision=ms).
# InfluxDB fixes a field's type with its first write: a point of other types makes the unit's
# writes fail with "field type conflict".
${line}
`,
  };
}

export function mongoScript(db: string, collection: string, user: string): PeerFile {
  return {
    name: 'mongosh.js',
    data: `// mongosh "mongodb://<server>:27017" --tls -u <admin> -p --file mongosh.js
// Creates the database and collection of settings.json and a login that may write to it.
db = db.getSiblingDB('${db}');
if (!db.getCollectionNames().includes('${collection}')) db.createCollection('${collection}');
if (!db.getUser('${user}')) db.createUser({ user: '${user}', pwd: passwordPrompt(), roles: [{ role: 'readWrite', db: '${db}' }] });
// after the unit has written: the newest documents
printjson(db.${collection}.find().sort({ _id: -1 }).limit(5).toArray());
`,
  };
}

export function restScript(port: number, https: boolean): PeerFile {
  return {
    name: 'rest_test.sh',
    data: `#!/bin/sh
# Checks the unit's REST API port from a PC inside the allowed range (ip1 .. ip2 of settings.json).
# Usage: sh rest_test.sh <unit address>
UNIT=\${1:?usage: sh rest_test.sh <unit address>}
BASE=${https ? 'https' : 'http'}://$UNIT:${port}

# 1. the API answers with the unit's information (-k: the unit's certificate may be self-signed;
#    use --cacert once it is known); 403 means this PC is outside ip1 .. ip2
curl -k -sS -w '\\nHTTP %{http_code}\\n' "$BASE/api/v1/info" || echo 'no answer: API off or wrong port'

# 2. PLC data through the API: DT100..DT104 of COM1 (see docs/rest.md for writing with PUT)
curl -k -sS -w '\\nHTTP %{http_code}\\n' "$BASE/api/v1/plc/COM1/DT/100?count=5"
${
  https
    ? `
# 3. the certificate the unit presents
curl -k -sS -v -o /dev/null "$BASE/" 2>&1 | grep -E 'SSL connection|subject:|expire date:'
`
    : ''
}
# 4. CORS (use_cors): a browser's preflight gets Access-Control-Allow-* headers back
curl -k -sS -i -X OPTIONS -H 'Origin: https://dashboard.example.com' -H 'Access-Control-Request-Method: GET' "$BASE/" \\
  | grep -i '^access-control-' || echo 'no CORS headers (use_cors off)'
`,
  };
}

export function tlsScript(t: {
  tls_server_host: string;
  tls_destination_port: number;
  nontls_server_port: number;
  tls_server_port: number;
  nontls_server_host: string;
  nontls_destination_port: number;
}): PeerFile {
  return {
    name: 'tls_test.sh',
    data: `#!/bin/sh
# Test peers for both parts of the TLS bridge (openssl 1.1 or newer). Run the parts separately.

# Client part: the unit takes plain TCP on port ${t.nontls_server_port} and carries it over TLS to
# ${t.tls_server_host}:${t.tls_destination_port}. On that host, a test server in place of the real one:
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \\
  -subj "/CN=${t.tls_server_host}" -keyout server-key.pem -out server.pem
openssl s_server -accept ${t.tls_destination_port} -cert server.pem -key server-key.pem
# Upload server.pem as the client part's CA certificate, then from a PC: nc <unit> ${t.nontls_server_port}
# and type a line: it appears in s_server.

# Server part: the unit takes TLS on port ${t.tls_server_port} and forwards plain TCP to
# ${t.nontls_server_host}:${t.nontls_destination_port}. From a PC, with the CA of the unit's server certificate:
# openssl s_client -connect <unit>:${t.tls_server_port} -CAfile ca.pem
`,
  };
}
