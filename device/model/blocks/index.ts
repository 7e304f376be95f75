// Every service control block, as data (convention.ts). The library zip, docs/services.md,
// `npm run plc -- request` and the engines read them from here.
import type { ControlBlock } from './convention.ts';
import { EMAIL_BLOCK } from './email.ts';
import { FTP_BLOCK } from './ftp.ts';
import { HTTP_BLOCK } from './httpc.ts';
import { MQTT_BLOCK } from './mqtt.ts';
import { NOSQL_BLOCK } from './nosql.ts';
import { SQL_BLOCK } from './sql.ts';

export * from './convention.ts';
export const CONTROL_BLOCKS: readonly ControlBlock[] = [FTP_BLOCK, MQTT_BLOCK, HTTP_BLOCK, EMAIL_BLOCK, SQL_BLOCK, NOSQL_BLOCK];

export function blockOf(service: string): ControlBlock | undefined {
  return CONTROL_BLOCKS.find((b) => b.service === service);
}
