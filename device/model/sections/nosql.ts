// NoSQL client, MongoDB or InfluxDB type (spec §3 "NoSQL (pew_nosql)": the SQL fields with collection
// and measurement instead of tablename and without port; §5 tag pair; §9 control register 370 + 10).
import type * as v from 'valibot';
import { controlRegister, hostUrl } from '../common.ts';
import { bool, choice, dbNameText, num, obj, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';
import { DB_NAME_MAX, DB_TIME_COLUMN, datalistIssues, dbClientEntries, dbSourceEntries, insertInterfaces, insertIssues } from './datapoint.ts';

export const NOSQL_REGISTERS = 10; // spec §9: NoSQL control register offset
// spec §3: database types mongo 0, influx 1
export const NOSQL_TYPES = [0, 1] as const;
export const MONGO = 0;
export const INFLUX = 1;
export const TAG_MAX = 64;

export const nosqlSchema = obj({
  enable_sql: bool(false), // spec §3: the SQL field names
  server: hostUrl(['mongodb', 'http', 'https']), // without a port field the port goes here (mongodb://h:27017, http://h:8086)
  instance_name: dbNameText(DB_NAME_MAX), // the database
  user: text(64),
  pass: secret(),
  db_type: choice(NOSQL_TYPES, MONGO),
  plc_control_dt: controlRegister(370, NOSQL_REGISTERS), // spec §9: default 370
  plc_poll: num(1, 3600, 1), // spec §9: poll time 1, databases up to 3600 s
  ...dbClientEntries,
  collection: dbNameText(DB_NAME_MAX), // MongoDB
  measurement: dbNameText(DB_NAME_MAX), // InfluxDB
  tag_name: dbNameText(TAG_MAX), // one tag on every point written (spec §5: name and value together)
  tag_value: dbNameText(TAG_MAX),
  ...dbSourceEntries,
});
export type Nosql = v.InferOutput<typeof nosqlSchema>;

/**
 * spec §5: "Tag name and tag value must both be given or both are ignored": the tag that is written,
 * or none when either is empty (one of them alone is not an error, it is left out).
 */
export const usedTag = (n: Pick<Nosql, 'tag_name' | 'tag_value'>): { name: string; value: string } | undefined =>
  n.tag_name !== '' && n.tag_value !== '' ? { name: n.tag_name, value: n.tag_value } : undefined;

/** The field a point may not be named: InfluxDB's own time, or the document's time stamp (MongoDB). */
export const nosqlOwnColumns = (n: Pick<Nosql, 'db_type'>): readonly string[] => (n.db_type === INFLUX ? ['time'] : [DB_TIME_COLUMN]);

function rules(n: Nosql): Issue[] {
  const out = datalistIssues(n.datalist, nosqlOwnColumns(n));
  if (!n.enable_sql) return out;
  const target = n.db_type === INFLUX ? 'measurement' : 'collection';
  for (const f of ['server', 'instance_name', target] as const) if (n[f] === '') out.push(issue(f, 'required'));
  return [...out, ...insertIssues(n)];
}

export const pew_nosql = defineSection({
  key: 'pew_nosql',
  index: 18,
  schema: nosqlSchema,
  passwords: ['pass'],
  targets: { pass: ['server'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (n) => (n.enable_sql ? [{ path: 'plc_control_dt', start: n.plc_control_dt, length: NOSQL_REGISTERS }] : []),
  interfaces: insertInterfaces,
});
