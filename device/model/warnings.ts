// The security warnings of spec §5 that apply to a configuration and the unit's services. The
// daemon reports them with the system information (GET /rest/api/v1, field warnings).
import type { ServiceName } from '../../hw/types.ts';
import { items, on } from './apps.ts';
import { CONFIG_SECTIONS } from './index.ts';
import { serviceWarnings } from './service-states.ts';

type Values = Record<string, Record<string, unknown> | undefined>;

export const SECURITY_WARNINGS = [
  'open_tcp_port',
  'no_encryption',
  'smtp_no_tls',
  'vnc_unencrypted',
  'autorun_enabled',
  'vpn_without_ntp',
  'iec_unencrypted',
  'frequent_writes',
  'api_without_key',
] as const;
export type SecurityWarningCode = (typeof SECURITY_WARNINGS)[number];
export interface SecurityWarning {
  code: SecurityWarningCode;
  /** what it concerns: ports, section keys or service names */
  subjects: (string | number)[];
}

/** A fixed-cycle log file that writes to internal storage more often than this wears the flash (spec §5). */
export const FREQUENT_WRITE_SECONDS = 60;

/** The security warnings of spec §5 that apply. */
export function securityWarnings(config: Values, services: readonly { name: ServiceName | string; enabled: boolean }[]): SecurityWarning[] {
  const out: SecurityWarning[] = [];
  const add = (code: SecurityWarningCode, subjects: (string | number)[]) => {
    if (subjects.length) out.push({ code, subjects });
  };

  const ports: number[] = [];
  for (const def of CONFIG_SECTIONS) {
    const value = config[def.key];
    if (value && def.ports) {
      try {
        ports.push(...def.ports(value).map((p) => p.port));
      } catch {
        /* a partial value lists no ports */
      }
    }
  }
  add(
    'open_tcp_port',
    [...new Set(ports)].sort((a, b) => a - b),
  );

  const mqtt = config.pew_mqtt;
  const plain: string[] = [];
  if (on(mqtt, 'enable_mqtt') && mqtt?.tls_version === 'none' && !/^(mqtts|wss):/.test(String(mqtt.broker_addr ?? ''))) plain.push('pew_mqtt');
  if (on(config.pew_ftpc, 'enable_ftp') && !on(config.pew_ftpc, 'transfermode_ssl') && !on(config.pew_ftpc, 'transfermode_ftps')) plain.push('pew_ftpc'); // FTPS (explicit) or SSL (implicit)
  if (on(config.pew_httpc, 'enable_httpc') && !on(config.pew_httpc, 'transfermode_ssl')) plain.push('pew_httpc');
  if (on(config.pew_api, 'api_enable', 'http_server') && !on(config.pew_api, 'use_encryption')) plain.push('pew_api');
  for (const key of ['pew_sql', 'pew_nosql']) if (on(config[key], 'enable_sql') && !on(config[key], 'use_encryption')) plain.push(key);
  if (on(config.pew_nosql, 'enable_sql') && on(config.pew_nosql, 'use_encryption') && /^http:/.test(String(config.pew_nosql?.server ?? '')))
    plain.push('pew_nosql');
  add('no_encryption', plain);

  if (on(config.pew_email, 'enable_email') && !on(config.pew_email, 'transfermode_ssl')) add('smtp_no_tls', ['pew_email']);
  // security.md REST-1: writes allowed without a key: anyone in the client range can write the listed PLC words
  if (on(config.pew_api, 'api_enable') && on(config.pew_api, 'keyless_writes') && (config.pew_api?.api_key ?? '') === '') add('api_without_key', ['pew_api']);
  out.push(...serviceWarnings(services));
  // IEC 60870-5-104 as configured here has no TLS layer
  if (on(config.pew_60870, 'enable_60870')) add('iec_unencrypted', ['pew_60870']);

  const log = config.pew_log;
  if (on(log, 'enable_log') && log?.storage === 0) {
    const files = items(log, 'log_def').flatMap((f, i) => (f.trigger === 1 && Number(f.cycle) * Number(f.delay_store) < FREQUENT_WRITE_SECONDS ? [i + 1] : []));
    add('frequent_writes', files);
  }
  return out;
}
