// The example downloads of the service pages (spec §2 "a download area with example zip files",
// §7 "Example downloads are zip files for library, MQTT, FTP client, SQL, HTTP client, e-mail,
// REST, TLS, Mongo and Influx"). Built on demand from the section modules, so that registers,
// defaults and field names in the text always match the schema; no binary files in the repository.
import { CONTROL_BLOCKS } from '../model/blocks/index.ts';
import { INTERFACE_NAMES, type InterfaceId } from '../model/plc.ts';
import { defaultsOf, type SectionDef, withDefaults } from '../model/section.ts';
import { type DataPoint, dataPointSchema } from '../model/sections/datapoint.ts';
import { pew_email } from '../model/sections/email.ts';
import { pew_ftpc } from '../model/sections/ftpc.ts';
import { pew_httpc } from '../model/sections/httpc.ts';
import { pew_mqtt } from '../model/sections/mqtt.ts';
import { INFLUX, MONGO, pew_nosql } from '../model/sections/nosql.ts';
import { pew_api } from '../model/sections/rest.ts';
import { pew_sql, SQL_DEFAULT_PORTS } from '../model/sections/sql.ts';
import { pew_tls } from '../model/sections/tls.ts';
import { blockRange, controlBlocks, controlInterfaceText, dt, LAYOUT_NOTE, layoutLines, libraryFiles } from './example-library.ts';
import { createTableSql, influxSample, mongoScript, mosquittoConf, type PeerFile, restScript, sqlScriptRun, tlsScript } from './example-peers.ts';
import { type PlannedBlock, plcPlan } from './example-plc.ts';
import { zip } from './zip.ts';

export const EXAMPLE_KINDS = ['library', 'mqtt', 'ftp', 'sql', 'httpc', 'email', 'rest', 'tls', 'mongo', 'influx'] as const;
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];
export const isExampleKind = (s: string): s is ExampleKind => (EXAMPLE_KINDS as readonly string[]).includes(s);

// biome-ignore lint/suspicious/noExplicitAny: example values are plain JSON of any section, checked by its schema
type Value = Record<string, any>;

interface ServiceExample {
  section: SectionDef;
  title: string;
  page: string; // the console's hash route (spec §2)
  what: string;
  /** example values over the section's defaults; passwords stay empty: no credential ships in a download */
  example: Value;
  peer?: (v: Value) => PeerFile[];
  steps?: (v: Value) => string[];
}

const USER = 'unit01';
const BROKER = { host: 'broker.example.com', port: 8883 };
// three values a PLC program typically offers, clear of the default control blocks and of the
// IEC 60870 default buffers (examples.test.ts checks the control blocks)
const POINTS: (Partial<DataPoint> & Pick<DataPoint, 'name' | 'type'> & { sample: number })[] = [
  { name: 'temperature', area: 'DT', address: 2000, type: 'REAL', decimal: 1, unit: '°C', sample: 21.5 },
  { name: 'pressure', area: 'DT', address: 2002, type: 'REAL', decimal: 3, unit: 'bar', sample: 1.013 },
  { name: 'counter', area: 'DT', address: 2004, type: 'UDINT', unit: 'pcs', sample: 48211 },
];
// whole data points, fields in schema order
const datalist = (): DataPoint[] => POINTS.map(({ sample: _sample, ...p }) => ({ ...(withDefaults(dataPointSchema, {}) as DataPoint), ...p }));
/** the example values of the data points, in their order (the samples of the peer files and of the PLC plan) */
export const EXAMPLE_SAMPLES: readonly number[] = POINTS.map((p) => p.sample);
const DB_NOTE = 'The data points (datalist) name the values and where the unit reads each one in the PLC.';
const interfaceStep = (v: Value) =>
  `The data points are read through the interface ${INTERFACE_NAMES[v.interface as InterfaceId]} (field interface, station plc_addr): set it to the interface the PLC is on (COM page).`;

const SERVICES: Record<Exclude<ExampleKind, 'library'>, ServiceExample> = {
  mqtt: {
    section: pew_mqtt,
    title: 'MQTT client',
    page: '/mqtt',
    what: 'The unit exchanges PLC data with an MQTT broker.\nThis example logs in to a broker over TLS (mqtts) with a user name and checks the broker with ca.crt.',
    example: { enable_mqtt: true, broker_addr: `mqtts://${BROKER.host}:${BROKER.port}`, broker_user: USER, tls_version: '1.2', ca: 'ca.crt' },
    peer: () => [mosquittoConf(BROKER.host, BROKER.port, USER)],
    steps: (v) => [
      `Set up the broker with mosquitto.conf and start it: mosquitto -c mosquitto.conf`,
      `Upload the broker's CA certificate as ${v.ca} on the MQTT page.`,
      `Watch what arrives: mosquitto_sub -h ${BROKER.host} -p ${BROKER.port} --cafile ca.crt -u ${USER} -P <password> -t '#' -v`,
    ],
  },
  ftp: {
    section: pew_ftpc,
    title: 'FTP client',
    page: '/ftp',
    what: "The unit sends files (for example the data logger's CSV files) to an FTP server when the PLC asks.\nThis example uses explicit FTPS (AUTH TLS) in passive mode, which works through NAT and firewalls.",
    example: { enable_ftp: true, server_ip: 'ftp.example.com', server_user: USER, server_dir: 'upload', local_file: 'values.csv', transfermode_ftps: true },
    steps: (v) => [`On the FTP server, create the user ${USER} with write access to the folder ${v.server_dir}, and allow explicit FTPS.`],
  },
  sql: {
    section: pew_sql,
    title: 'SQL client',
    page: '/sql',
    what: `The unit inserts PLC values as rows into a table of an SQL database (MS SQL, MySQL/MariaDB or\nPostgreSQL). This example writes to MySQL/MariaDB.\n${DB_NOTE}`,
    example: {
      enable_sql: true,
      server: 'db.example.com',
      db_type: 1,
      port: SQL_DEFAULT_PORTS[1],
      instance_name: 'plant',
      user: USER,
      tablename: 'plc_values',
      datalist: datalist(),
    },
    peer: (v) => [
      createTableSql('mysql', v.instance_name, v.tablename, USER, v.datalist),
      createTableSql('postgres', v.instance_name, v.tablename, USER, v.datalist),
    ],
    steps: (v) => [
      `Create the database, table and login on the server (and choose the login's password there): ${sqlScriptRun('mysql')}`,
      `PostgreSQL instead: set db_type 2 and port ${SQL_DEFAULT_PORTS[2]} in settings.json and run ${sqlScriptRun('postgres')}`,
      interfaceStep(v),
      `Connection test on the /sql page; then the PLC sets the request word (library example: plc_register_plan.txt) and the row arrives in ${v.tablename}.`,
    ],
  },
  httpc: {
    section: pew_httpc,
    title: 'HTTP client',
    page: '/httpc',
    what: 'The unit sends requests with PLC data to an HTTP(S) server when the PLC asks.\nThis example uses HTTPS with a user name; the server certificate must verify.',
    example: { enable_httpc: true, server_addr: 'https://server.example.com/plc/upload', server_user: USER },
    steps: () => ['Point server_addr at a test HTTPS server that logs the requests it receives, and check them there.'],
  },
  email: {
    section: pew_email,
    title: 'E-mail client',
    page: '/smtp',
    what: 'The unit sends e-mails (alarms, reports) when the PLC asks.\nThis example sends over SMTP with SSL/TLS on port 465 and logs in with SMTP AUTH.',
    example: {
      enable_email: true,
      server_smtp: 'smtp.example.com',
      server_smtp_port: 465,
      server_user: `${USER}@example.com`,
      sender: `<${USER}@example.com>`,
      recipients: '<maintenance@example.com>, <shift.lead@example.com>',
      subject: 'Message from unit 01',
    },
    steps: () => ["Use a mailbox reserved for the unit; look in the recipients' spam folders for the first mails."],
  },
  rest: {
    section: pew_api,
    title: 'REST API and HTTP server',
    page: '/rest',
    what: 'The unit answers HTTP(S) requests of clients such as SCADA systems or dashboards on its own port.\nThis example serves HTTPS to the addresses 192.168.1.1 .. 192.168.1.254 only.',
    example: { api_enable: true, ip1: '192.168.1.1', ip2: '192.168.1.254' },
    peer: (v) => [restScript(v.http_port, v.use_encryption)],
    steps: (v) => [
      ...(v.use_encryption ? ['HTTPS: upload the certificate the unit presents and its key (server.pem, key.pem) on the page #/rest.'] : []),
      'From a PC inside the allowed range (ip1 .. ip2, which you set to your network): sh rest_test.sh <unit address>',
    ],
  },
  tls: {
    section: pew_tls,
    title: 'TLS client and server bridging',
    page: '/tls',
    what: 'The client part takes plain TCP connections (e.g. Modbus/TCP) and carries them over TLS to a remote\nserver; the server part takes TLS connections and forwards them in plain text to a device such as\nthe PLC. This example switches both parts on.',
    example: {
      enable_tlsclient: true,
      tls_server_host: 'modbus-server.example.com',
      tlsclientca: 'ca.pem',
      enable_tlsserver: true,
      nontls_server_host: '192.168.1.10',
      tlsservercert: 'server.pem',
      tlsserverkey: 'key.pem',
    },
    peer: (v) => [tlsScript(v as Parameters<typeof tlsScript>[0])],
    steps: () => ['Upload the certificates named in settings.json on the TLS pages, then follow tls_test.sh.'],
  },
  mongo: {
    section: pew_nosql,
    title: 'NoSQL client, MongoDB',
    page: '/db',
    what: `The unit writes PLC values as documents into a MongoDB collection (section pew_nosql with\ndb_type ${MONGO}).\n${DB_NOTE}`,
    example: {
      enable_sql: true,
      db_type: MONGO,
      server: 'mongodb://mongo.example.com:27017',
      instance_name: 'plant',
      collection: 'plc_values',
      user: USER,
      datalist: datalist(),
    },
    peer: (v) => [mongoScript(v.instance_name, v.collection, USER)],
    steps: (v) => ['Create the database, collection and login: mongosh "mongodb://<server>:27017" --tls -u <admin> -p --file mongosh.js', interfaceStep(v)],
  },
  influx: {
    section: pew_nosql,
    title: 'NoSQL client, InfluxDB',
    page: '/db',
    what: `The unit writes PLC values as points into an InfluxDB measurement (section pew_nosql with\ndb_type ${INFLUX}), each point with one tag.\n${DB_NOTE}`,
    example: {
      enable_sql: true,
      db_type: INFLUX,
      server: 'https://influx.example.com:8086',
      instance_name: 'plant',
      measurement: 'plc_values',
      tag_name: 'unit',
      tag_value: USER,
      user: USER,
      datalist: datalist(),
    },
    peer: (v) => [influxSample(v.measurement, [v.tag_name, v.tag_value], v.datalist, EXAMPLE_SAMPLES, new Date(Date.UTC(2026, 0, 1)))],
    steps: (v) => [
      `InfluxDB 1.x: curl -XPOST '${v.server}/query' --data-urlencode 'q=CREATE DATABASE ${v.instance_name}'`,
      `The line format as the unit writes it (the same field types): curl -XPOST '${v.server}/write?db=${v.instance_name}&precision=ms' --data-binary @sample.lp`,
      interfaceStep(v),
    ],
  },
};

/** The example section value (whole, as `POST /config/<section>` takes it). */
export function exampleSettings(kind: Exclude<ExampleKind, 'library'>): Value {
  const s = SERVICES[kind];
  return withDefaults(s.section.schema, { ...(defaultsOf(s.section) as Value), ...s.example }) as Value;
}

const API = 'http://127.0.0.1:8080';
const LOGIN = `'{"username":"admin","password":"Choose-A-Passw0rd!"}'`;

function simulatorSteps(s: ServiceExample, v: Value): string[] {
  return [
    `In a checkout of the console: npm install && npm start (the simulator answers on ${API}).`,
    `On a fresh data folder create the administrator first:\n     curl -s -H 'content-type: application/json' -d ${LOGIN} ${API}/rest/api/v1/authentication/setup`,
    `Log in, keeping the session cookie and the CSRF token:\n     TOKEN=$(curl -s -c jar -H 'content-type: application/json' -d ${LOGIN} ${API}/rest/api/v1/authentication | sed -n 's/.*"csrfToken":"\\([^"]*\\)".*/\\1/p')`,
    `Put your own host names and users into settings.json, and the passwords (they are empty here).`,
    ...('ca' in v && v.ca === ''
      ? [
          `The server's certificate must verify: one of a public CA does as it is; for a CA of your own, upload it on the page #${s.page} and put its file name into ca.`,
        ]
      : []),
    `Save it as section ${s.section.key} (a wrong value is refused with 400 and the field and code; nothing is saved):\n     curl -s -b jar -H "X-CSRF-Token: $TOKEN" -H 'content-type: application/json' --data @settings.json ${API}/config/${s.section.key}`,
    `Open ${API}/#${s.page}: the page shows the saved settings, passwords as ********.`,
    ...(s.steps?.(v) ?? []),
  ];
}

const SIMULATOR_NOTE =
  'The simulator checks and stores the settings exactly as the unit does. The connection to the peer\nis made by the service on the unit: do the peer steps against the unit.';

function readme(kind: Exclude<ExampleKind, 'library'>, s: ServiceExample, v: Value, files: PeerFile[]): string {
  const blocks = controlBlocks(s.section);
  const plc = blocks.length
    ? [
        ...blocks.flatMap((b) => [
          `${b.purpose}`,
          `  ${blockRange(b)} (${b.length} registers); the start register is the setting ${b.path} (default ${dt(b.start)})` +
            (b.poll ? `;\n  the unit reads the block every ${b.poll.path} seconds (default ${b.poll.seconds} s).` : '.'),
        ]),
        '',
        controlInterfaceText(),
        '',
        LAYOUT_NOTE,
        ...blocks.flatMap((b) => (b.path === 'plc_control_dt' ? layoutLines(b.section) : [])),
        'The library example lists the blocks of all services.',
      ]
    : [`${s.title} is not driven through control registers: clients call the unit on http_port (default ${(defaultsOf(s.section) as Value).http_port}).`];
  const title = `${s.title} example (${kind})`;
  return [
    title,
    '='.repeat(title.length),
    '',
    'What it does',
    s.what,
    '',
    `Console page: #${s.page}    Section: ${s.section.key}`,
    '',
    'How the PLC drives it',
    ...plc,
    '',
    'Files',
    '  README.txt        this text',
    `  settings.json     the section ${s.section.key} with example values (POST /config/${s.section.key} takes it as it is)`,
    ...files.map((f) => `  ${f.name.padEnd(17)} peer side`),
    '',
    'Try it with the simulator',
    ...simulatorSteps(s, v).map((x, i) => `  ${i + 1}. ${x}`),
    '',
    SIMULATOR_NOTE,
    '',
  ].join('\n');
}

/** Each service block at the start register of the example settings that use it. */
export function plannedBlocks(): PlannedBlock[] {
  return CONTROL_BLOCKS.flatMap((block) => {
    const kinds = (Object.keys(SERVICES) as Exclude<ExampleKind, 'library'>[]).filter((k) => SERVICES[k].section.key === block.section);
    const starts = [...new Set(kinds.map((k) => exampleSettings(k).plc_control_dt as number))];
    return starts.map((start) => ({ block, start, examples: kinds.filter((k) => exampleSettings(k).plc_control_dt === start) }));
  });
}

/** The files of one example archive. */
export function exampleFiles(kind: ExampleKind): PeerFile[] {
  if (kind === 'library') return [...libraryFiles(), plcPlan(plannedBlocks(), datalist(), EXAMPLE_SAMPLES)];
  const s = SERVICES[kind];
  const v = exampleSettings(kind);
  const peer = s.peer?.(v) ?? [];
  return [{ name: 'README.txt', data: readme(kind, s, v, peer) }, { name: 'settings.json', data: `${JSON.stringify(v, null, 2)}\n` }, ...peer];
}

const cache = new Map<ExampleKind, Uint8Array<ArrayBuffer>>();

/** The zip of one example, built on first use and kept (a few kilobytes each). */
export function exampleZip(kind: ExampleKind): Uint8Array<ArrayBuffer> {
  let z = cache.get(kind);
  if (!z) {
    z = zip(exampleFiles(kind));
    cache.set(kind, z);
  }
  return z;
}
