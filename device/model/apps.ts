// Which applications are switched on (the menu's view filter, spec §2). Kept apart from the schemas
// so the console's shell can use it without loading the configuration model.

type Value = Record<string, unknown> | undefined;
export const on = (v: Value, ...keys: string[]) => !!v && keys.some((k) => v[k] === true);
export const items = (v: Value, key: string) => (Array.isArray(v?.[key]) ? (v[key] as Record<string, unknown>[]) : []);

/** Whether the application of a section is switched on (spec §2 view filter: enabled / disabled). */
export const APP_ENABLED: Record<string, (v: Value) => boolean> = {
  pew: (v) => items(v, 'interfaces').some((i) => i.enabled === true),
  pew_redirect: (v) => items(v, 'threads').length > 0,
  pew_mqtt: (v) => on(v, 'enable_mqtt'),
  pew_ftpc: (v) => on(v, 'enable_ftp'),
  pew_rtc: (v) => on(v, 'rtc_by_plc'),
  pew_httpc: (v) => on(v, 'enable_httpc'),
  pew_email: (v) => on(v, 'enable_email'),
  pew_api: (v) => on(v, 'api_enable', 'http_server'),
  pew_tls: (v) => on(v, 'enable_tlsclient', 'enable_tlsserver'),
  pew_60870: (v) => on(v, 'enable_60870'),
  pew_sql: (v) => on(v, 'enable_sql'),
  pew_nosql: (v) => on(v, 'enable_sql'),
  pew_script: (v) => on(v, 'enable_script'),
  script_file: (v) => on(v, 'enable_script'),
  pew_log: (v) => on(v, 'enable_log'),
};
