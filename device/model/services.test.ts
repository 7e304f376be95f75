// The services request schema and the pure service rules (spec §3, §4, §5; docs/api.md pew_system,
// factory_reset): what a change may hold, which changes are real, which warnings follow.

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../hw/types.ts';
import { factoryResetSchema } from './factory-reset.ts';
import { toIssues } from './section.ts';
import { serviceDiff, serviceWarnings } from './service-states.ts';
import { serviceChangesSchema } from './services.ts';

const issues = (schema: v.GenericSchema, x: unknown) => {
  const r = v.safeParse(schema, x);
  return r.success ? [] : toIssues(r.issues).map((i) => `${i.path}:${i.code}`);
};

describe('serviceChangesSchema', () => {
  it('takes any subset of the services of spec §3 with true or false', () => {
    expect(issues(serviceChangesSchema, Object.fromEntries(SERVICE_NAMES.map((n) => [n, true])))).toEqual([]);
    expect(issues(serviceChangesSchema, { ntpd: false })).toEqual([]);
  });
  it('refuses unknown names, other values, an empty change and non-objects', () => {
    expect(issues(serviceChangesSchema, { telnetd: true })).toEqual(['telnetd:unknown_key']);
    expect(issues(serviceChangesSchema, { sshd: 'true' })).toEqual(['sshd:type']);
    expect(issues(serviceChangesSchema, { sshd: null })).toEqual(['sshd:type']);
    expect(issues(serviceChangesSchema, {})).toEqual([':required']);
    for (const x of [[], null, 'sshd', 1]) expect(issues(serviceChangesSchema, x)).toEqual([':type']);
  });
});

describe('factoryResetSchema', () => {
  it('passes only the exact confirmation word', () => {
    expect(issues(factoryResetSchema, { confirm: 'RESET' })).toEqual([]);
    expect(issues(factoryResetSchema, {})).toEqual(['confirm:required']);
    expect(issues(factoryResetSchema, { confirm: 'reset' })).toEqual(['confirm:invalid_value']);
    expect(issues(factoryResetSchema, { confirm: 'RESET', also: 1 })).toEqual(['also:unknown_key']);
    expect(issues(factoryResetSchema, ['RESET'])).toEqual([':type']);
  });
});

describe('serviceDiff', () => {
  const now = SERVICE_NAMES.map((name) => ({ name, enabled: name === 'ntpd' }));
  it('keeps only the changes that differ, in the order of spec §3', () => {
    expect(serviceDiff(now, { sshd: true, ntpd: true, autorun: false, x11vnc: true })).toEqual([
      ['x11vnc', true],
      ['sshd', true],
    ]);
    expect(serviceDiff(now, {})).toEqual([]);
  });
});

describe('serviceWarnings', () => {
  const state = (...on: string[]) => SERVICE_NAMES.map((name) => ({ name, enabled: on.includes(name) }));
  it('warns of VNC, autorun and the VPN without NTP, and of nothing else', () => {
    expect(serviceWarnings(state('ntpd', 'firewall', 'sshd'))).toEqual([]);
    expect(serviceWarnings(state('x11vnc', 'autorun', 'cloud')).map((w) => w.code)).toEqual(['vnc_unencrypted', 'autorun_enabled', 'vpn_without_ntp']);
    expect(serviceWarnings(state('cloud', 'ntpd'))).toEqual([]);
  });
});
