// The target identity of a queued job (docs/services.md "Dead letters"): the settings that say where
// a job goes, as one readable text. Every job is stamped with the target of the run that made it;
// a job whose target is not the saved one any more (the server, database, table, measurement, tag,
// broker, URL or recipients changed) is never delivered elsewhere: it becomes a dead letter
// (target_gone). Settings that do not change where a job goes (poll time, timeouts, passwords,
// data points) keep the target; a row whose columns no longer fit its table fails as a permanent
// error instead (job-fate.ts). Passwords never appear here.
import type { Email } from '../model/sections/email.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import { INFLUX, type Nosql, usedTag } from '../model/sections/nosql.ts';
import type { Sql } from '../model/sections/sql.ts';

const SQL_KIND: Record<number, string> = { 0: 'mssql', 1: 'mysql', 2: 'postgresql' };

export const sqlTarget = (s: Pick<Sql, 'db_type' | 'server' | 'port' | 'instance_name' | 'tablename'>): string =>
  `${SQL_KIND[s.db_type] ?? s.db_type}://${s.server}:${s.port}/${s.instance_name} table ${s.tablename}`;

export function nosqlTarget(n: Pick<Nosql, 'db_type' | 'server' | 'instance_name' | 'measurement' | 'collection' | 'tag_name' | 'tag_value'>): string {
  if (n.db_type !== INFLUX) return `mongodb ${n.server} database ${n.instance_name} collection ${n.collection}`;
  const tag = usedTag(n);
  return `influxdb ${n.server} database ${n.instance_name} measurement ${n.measurement}${tag ? ` tag ${tag.name}=${tag.value}` : ''}`;
}

export const httpTarget = (h: Pick<Httpc, 'server_addr'>): string => h.server_addr;

export const emailTarget = (e: Pick<Email, 'server_smtp' | 'server_smtp_port' | 'recipients'>): string =>
  `smtp ${e.server_smtp}:${e.server_smtp_port} to ${e.recipients}`;

export const mqttTarget = (m: Pick<Mqtt, 'broker_addr'>): string => m.broker_addr;
