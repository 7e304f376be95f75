// SQL client (spec §3 "SQL (pew_sql)", §5 database names, §9 control register 350 + 6, SQL limits).
import type * as v from 'valibot';
import { controlRegister } from '../common.ts';
import { bool, choice, dbNameText, hostText, num, obj, remotePort, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';
import { DB_NAME_MAX, datalistIssues, dbClientEntries, dbSourceEntries, insertInterfaces, insertIssues, SQL_OWN_COLUMNS } from './datapoint.ts';

export const SQL_REGISTERS = 6; // spec §9: SQL control register offset
// database servers: MS SQL (0), MySQL/MariaDB (1), PostgreSQL (2), and their usual ports
export const SQL_TYPES = [0, 1, 2] as const;
export const MSSQL = 0;
export const SQL_DEFAULT_PORTS: Record<(typeof SQL_TYPES)[number], number> = { 0: 1433, 1: 3306, 2: 5432 };

export const sqlSchema = obj({
  enable_sql: bool(false),
  server: hostText(''),
  instance_name: dbNameText(DB_NAME_MAX), // the database; may stay empty on MS SQL (the login's default)
  port: remotePort(SQL_DEFAULT_PORTS[MSSQL]),
  user: text(64),
  pass: secret(),
  db_type: choice(SQL_TYPES, MSSQL),
  plc_control_dt: controlRegister(350, SQL_REGISTERS), // spec §9: default 350
  plc_poll: num(0.5, 3600, 1), // spec §9: poll time minimum 0.5 for SQL, databases up to 3600 s
  ...dbClientEntries,
  tablename: dbNameText(DB_NAME_MAX), // spec §5 database name rule
  ...dbSourceEntries,
});
export type Sql = v.InferOutput<typeof sqlSchema>;

function rules(s: Sql): Issue[] {
  const out = datalistIssues(s.datalist, SQL_OWN_COLUMNS);
  if (!s.enable_sql) return out;
  if (s.server === '') out.push(issue('server', 'required'));
  if (s.instance_name === '' && s.db_type !== MSSQL) out.push(issue('instance_name', 'required'));
  if (s.tablename === '') out.push(issue('tablename', 'required'));
  return [...out, ...insertIssues(s)];
}

export const pew_sql = defineSection({
  key: 'pew_sql',
  index: 10,
  schema: sqlSchema,
  passwords: ['pass'],
  targets: { pass: ['server', 'port'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (s) => (s.enable_sql ? [{ path: 'plc_control_dt', start: s.plc_control_dt, length: SQL_REGISTERS }] : []),
  interfaces: insertInterfaces,
});
