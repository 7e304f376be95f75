import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defaultsOf, loadSection, repairValue, toIssues } from './section.ts';
import { pew_mqtt } from './sections/mqtt.ts';
import { pew } from './sections/pew.ts';
import { pew_redirect } from './sections/redirect.ts';

describe('loading stored sections', () => {
  it('fills missing fields from defaults and drops unknown ones', () => {
    const { value, repaired } = loadSection(pew_mqtt, { keep_alive: 30, legacy: true });
    expect(value).toEqual({ ...defaultsOf(pew_mqtt), keep_alive: 30 });
    expect(repaired).toBe(true);
  });

  it('replaces an invalid field by its default and keeps the valid ones', () => {
    const { value } = loadSection(pew_mqtt, { ...defaultsOf(pew_mqtt), keep_alive: -5, qos: 2 });
    expect(value.keep_alive).toBe(65);
    expect(value.qos).toBe(2);
  });

  it('repairs inside lists and drops list items beyond the limit', () => {
    const thread = { port: 9100, clients: 99 };
    const { value } = loadSection(pew_redirect, { threads: Array.from({ length: 12 }, (_, i) => ({ ...thread, port: 9100 + i })) });
    expect(value.threads).toHaveLength(10);
    expect(value.threads[0]).toMatchObject({ port: 9100, clients: 4 });
  });

  it('a value that breaks a rule of the section gives the defaults', () => {
    const stored = defaultsOf(pew);
    stored.interfaces[1]!.id = 0; // duplicate interface id
    expect(loadSection(pew, stored).value).toEqual(defaultsOf(pew));
  });

  it('a valid file loads unchanged and is not reported as repaired', () => {
    const d = { ...defaultsOf(pew_mqtt), keep_alive: 10 };
    expect(loadSection(pew_mqtt, d)).toEqual({ value: d, repaired: false });
    expect(repairValue(pew_mqtt.schema, d)).toEqual(d);
  });
});

describe('issues', () => {
  it('carry stable codes with params and the path inside the section', () => {
    const r = v.safeParse(pew_mqtt.schema, { keep_alive: 70000, bogus: 1, qos: '1' });
    expect(r.success).toBe(false);
    expect(toIssues(r.issues!)).toEqual([
      { path: 'keep_alive', code: 'out_of_range', params: { min: 0, max: 65535 } },
      { path: 'qos', code: 'invalid_value', params: { allowed: [0, 1, 2] } },
      { path: 'bogus', code: 'unknown_key' },
    ]);
  });
});

describe('submitted shapes', () => {
  it('an array where an object belongs is refused, at any depth', async () => {
    const { validateSection } = await import('./section.ts');
    expect(validateSection(pew_mqtt, [])).toEqual({ ok: false, issues: [{ path: '', code: 'type', params: { expected: 'object' } }] });
    const value: any = structuredClone(defaultsOf(pew));
    value.interfaces[2] = [];
    expect(validateSection(pew, value)).toEqual({ ok: false, issues: [{ path: 'interfaces.2', code: 'type', params: { expected: 'object' } }] });
    value.interfaces[2] = defaultsOf(pew).interfaces[2];
    value.restart_control_r = [];
    expect(validateSection(pew, value)).toMatchObject({ ok: false, issues: [{ path: 'restart_control_r' }] });
  });
});

describe('whole sections', () => {
  it('a submitted section must carry every field, nested ones too', async () => {
    const { validateSection } = await import('./section.ts');
    const { keep_alive: _k, ...partial } = defaultsOf(pew_mqtt);
    expect(validateSection(pew_mqtt, partial)).toEqual({ ok: false, issues: [{ path: 'keep_alive', code: 'required' }] });
    expect(validateSection(pew_mqtt, {})).toMatchObject({ ok: false });
    const value: any = structuredClone(defaultsOf(pew));
    delete value.interfaces[1].baudrate;
    expect(validateSection(pew, value)).toEqual({ ok: false, issues: [{ path: 'interfaces.1.baudrate', code: 'required' }] });
  });
});
