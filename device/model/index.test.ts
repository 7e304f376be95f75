import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ALL_SECTIONS, CONFIG_SECTIONS } from './index.ts';
import { defaultsOf, loadSection, validateSection } from './section.ts';

describe('section registry', () => {
  it('has every section of spec §3 with its index', () => {
    expect(Object.fromEntries(ALL_SECTIONS.map((d) => [d.key, d.index]))).toEqual({
      pew: 0,
      pew_mqtt: 1,
      pew_redirect: 2,
      pew_ftpc: 3,
      pew_rtc: 4,
      pew_httpc: 5,
      pew_email: 6,
      pew_api: 7,
      pew_tls: 8,
      pew_60870: 9,
      pew_sql: 10,
      pew_script: 11,
      script_file: 12,
      pew_log: 13,
      logcfg: 16,
      restHttpFiles: 17,
      pew_nosql: 18,
    });
    expect(CONFIG_SECTIONS.map((d) => d.key)).not.toContain('logcfg');
  });

  it.each(ALL_SECTIONS.map((d) => [d.key, d] as const))('%s: defaults pass their own schema and rules', (_key, def) => {
    const d = defaultsOf(def);
    expect(v.safeParse(def.schema, d).success).toBe(true);
    expect(validateSection(def, d)).toEqual({ ok: true, value: d });
  });

  it.each(ALL_SECTIONS.map((d) => [d.key, d] as const))('%s: an empty or foreign file loads as the defaults', (_key, def) => {
    expect(loadSection(def, {}).value).toEqual(defaultsOf(def));
    expect(loadSection(def, 'garbage').value).toEqual(defaultsOf(def));
    expect(loadSection(def, { unknown_field: 1 }).value).toEqual(defaultsOf(def));
  });

  it.each(ALL_SECTIONS.map((d) => [d.key, d] as const))('%s: password fields are top-level text fields', (_key, def) => {
    const d = defaultsOf(def) as Record<string, unknown>;
    for (const p of def.passwords) expect(typeof d[p], p).toBe('string');
  });
});

describe('section keys without schemas', () => {
  it('agree with the registry, key and index, in the same order', async () => {
    const { CONFIG_KEYS } = await import('./keys.ts');
    const { CONFIG_SECTIONS } = await import('./index.ts');
    expect(CONFIG_KEYS.map(([k, i]) => `${k}:${i}`)).toEqual(CONFIG_SECTIONS.map((d) => `${d.key}:${d.index}`));
  });
});
