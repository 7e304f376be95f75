// Session-level information besides the sections (spec §3, §7): system information, services,
// the log config files list, the uploaded HTTP files list, and the system log.
import { signal } from '@preact/signals';
import type { ConsoleListenerStatus } from '../../device/api/listen.ts';
import { HTTP_FILES_PATH, LOG_CONFIG_FILES_PATH, SERVICES_PATH, SYSTEM_INFO_PATH } from '../../device/model/start-answers.ts';
import type { AuditEntry } from '../../device/model/users.ts';
import type { VersionKind } from '../../device/model/versions.ts';
import type { SecurityWarning } from '../../device/model/warnings.ts';
import type { ConsoleCertificate } from '../../device/system/console-tls.ts';
import type { ServiceState, SystemInfo } from '../../hw/types.ts';
import { get } from '../api/client.ts';

export interface VersionInfo {
  app: string;
  bsp: string;
  hmi: string;
  minimum: Record<VersionKind, string>;
  incompatible: VersionKind[];
}
/** the console's HTTPS and its certificate (security.md TLS-2) */
export type ConsoleTlsInfo = { enabled: false } | { enabled: true; certificate: ConsoleCertificate };
/** one of the console's own listeners with the connections it ended for a contained fault */
export type ConsoleListenerInfo = ConsoleListenerStatus;
export type SystemInfoAnswer = SystemInfo & {
  services: ServiceState[];
  versions: VersionInfo;
  warnings: SecurityWarning[];
  consoleTls?: ConsoleTlsInfo;
  consoleListeners?: ConsoleListenerInfo[];
};
export interface SyslogEntry {
  time: number | string;
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

export const systemInfo = signal<SystemInfoAnswer | null>(null);
export const services = signal<ServiceState[]>([]);
export const logConfigFiles = signal<string[]>([]);
export const httpFiles = signal<{ name: string; size: number }[]>([]);
export const syslog = signal<SyslogEntry[]>([]);
/** the latest audit entries, newest last: only an administrator gets them (empty for the user role) */
export const syslogAudit = signal<AuditEntry[]>([]);
export const systemFailed = signal(false);

/** The system part of the load of spec §7; each call failing alone leaves the others. */
export async function loadSystem(): Promise<void> {
  await Promise.all([
    get<SystemInfoAnswer>(SYSTEM_INFO_PATH).then(
      (i) => {
        systemInfo.value = i;
        systemFailed.value = false;
      },
      (e) => {
        systemFailed.value = true;
        console.error('loading system information failed', e);
      },
    ),
    get<{ services: ServiceState[] }>(SERVICES_PATH).then(
      (s) => {
        services.value = s.services;
      },
      (e) => console.error('loading services failed', e),
    ),
    get<{ files: string[] }>(LOG_CONFIG_FILES_PATH).then(
      (f) => {
        logConfigFiles.value = f.files;
      },
      (e) => console.error('loading the log config files failed', e),
    ),
    get<{ files: { name: string; size: number }[] }>(HTTP_FILES_PATH).then(
      (f) => {
        httpFiles.value = f.files;
      },
      (e) => console.error('loading the HTTP files failed', e),
    ),
  ]);
}

export async function loadSyslog(): Promise<void> {
  const r = await get<{ entries: SyslogEntry[]; audit?: AuditEntry[] }>('/config/get_syslogs');
  syslog.value = r.entries;
  syslogAudit.value = r.audit ?? [];
}
