// The configuration sections saved through `/config/<key>` and their spec §3 indexes, without
// their schemas: what the console's shell needs before it loads the model. index.test.ts checks
// that this list and the registry of index.ts agree.
export const CONFIG_KEYS = [
  ['pew', 0],
  ['pew_mqtt', 1],
  ['pew_redirect', 2],
  ['pew_ftpc', 3],
  ['pew_rtc', 4],
  ['pew_httpc', 5],
  ['pew_email', 6],
  ['pew_api', 7],
  ['pew_tls', 8],
  ['pew_60870', 9],
  ['pew_sql', 10],
  ['pew_script', 11],
  ['script_file', 12],
  ['pew_log', 13],
  ['pew_nosql', 18],
] as const;
export type SectionKey = (typeof CONFIG_KEYS)[number][0];
