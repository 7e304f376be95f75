// Peer-side samples for the example downloads: what the technician sets up on the other end
// (broker, database, test tools). Every name, port and type comes from the example settings or
// the section modules, so a sample always matches the settings.json beside it.
import { type DataFormat, type DataPoint, STRING_MAX } from '../model/sections/datapoint.ts';

export interface PeerFile {
  name: string;
  data: string;
}

/** A data point of the examples with a plausible value for the samples. */
export type SamplePoint = Pick<DataPoint, 'name' | 'type'> & { sample: number };

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

// Column types for MySQL/MariaDB: the value as the PLC holds it, scaled or decimal values as
// floating point, DT as the PLC clock's seconds count (a data point with decimals or scaling is
// stored as a number with a fraction)
const SQL_TYPES: Record<DataFormat, string> = {
  INT: 'SMALLINT',
  UINT: 'SMALLINT UNSIGNED',
  HEX: 'VARCHAR(4)',
  BIN: 'VARCHAR(16)',
  BOOL: 'BOOLEAN',
  DINT: 'INT',
  UDINT: 'INT UNSIGNED',
  HEX32: 'VARCHAR(8)',
  REAL: 'DOUBLE',
  REALEX: 'DOUBLE',
  LREAL: 'DOUBLE',
  LREALEX: 'DOUBLE',
  INT64: 'BIGINT',
  UINT64: 'BIGINT UNSIGNED',
  ASCII: 'VARCHAR(2)',
  DT: 'BIGINT',
  STRING: `VARCHAR(${STRING_MAX})`,
};

export function createTableSql(db: string, table: string, user: string, points: readonly DataPoint[]): PeerFile {
  const cols = points.map((p) => `  ${p.name} ${p.enable_scal || p.decimal > 0 ? 'DOUBLE' : SQL_TYPES[p.type]} NULL,`);
  return {
    name: 'create_table.sql',
    data: `-- MySQL/MariaDB: the database and table of settings.json, one column per data point
-- (column name = data point name). ts is filled by the server, so an insert without it works.
-- Run as an administrator: mysql -h <server> -u root -p < create_table.sql
CREATE DATABASE IF NOT EXISTS ${db};
USE ${db};
CREATE TABLE IF NOT EXISTS ${table} (
  id BIGINT AUTO_INCREMENT PRIMARY KEY,
  ts TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
${cols.join('\n')}
  INDEX (ts)
);
-- the unit only needs to insert: give its login nothing more
CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY 'choose-a-password';
GRANT INSERT ON ${db}.${table} TO '${user}'@'%';
`,
  };
}

export function influxSample(measurement: string, tag: [string, string], points: readonly SamplePoint[], time: Date): PeerFile {
  const fields = points.map((p) => `${p.name}=${Number.isInteger(p.sample) ? p.sample.toFixed(1) : p.sample}`).join(',');
  return {
    name: 'sample.lp',
    data: `# InfluxDB line protocol: one point as the settings.json example describes it
# (measurement ${measurement}, tag ${tag[0]}=${tag[1]}, one field per data point, time in ns).
# InfluxDB fixes a field's type with its first write, so write this into a test database only.
${measurement},${tag[0]}=${tag[1]} ${fields} ${BigInt(time.getTime()) * 1_000_000n}
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
