import { describe, expect, it } from 'vitest';
import { APP_ENABLED } from './apps.ts';
import { CONFIG_SECTIONS } from './index.ts';
import { defaultsOf, withDefaults } from './section.ts';
import { pew_log } from './sections/log.ts';
import { securityWarnings } from './warnings.ts';

const defaults = () => Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, defaultsOf(d) as Record<string, unknown>]));
const off = [
  { name: 'ntpd', enabled: true },
  { name: 'firewall', enabled: true },
];

describe('applications switched on', () => {
  it('has a rule for every configuration section; only the COM interfaces are on by default', () => {
    const c = defaults();
    for (const d of CONFIG_SECTIONS) expect(APP_ENABLED[d.key]?.(c[d.key]), d.key).toBe(d.key === 'pew');
  });
  it('follows the enable flags', () => {
    expect(APP_ENABLED.pew_mqtt!({ enable_mqtt: true })).toBe(true);
    expect(APP_ENABLED.pew_api!({ api_enable: false, http_server: true })).toBe(true);
    expect(APP_ENABLED.pew_redirect!({ threads: [{}] })).toBe(true);
  });
});

describe('security warnings (spec §5)', () => {
  it('none for the factory configuration with the default services', () => {
    expect(securityWarnings(defaults(), off)).toEqual([]);
  });
  it('names open ports, plain services, SMTP without TLS and IEC', () => {
    const c = defaults();
    c.pew_mqtt = { ...c.pew_mqtt, enable_mqtt: true, broker_addr: 'broker.local' };
    c.pew_email = { ...c.pew_email, enable_email: true, transfermode_ssl: false };
    c.pew_60870 = { ...c.pew_60870, enable_60870: true };
    c.pew_sql = { ...c.pew_sql, enable_sql: true, use_encryption: false };
    const w = securityWarnings(c, off);
    expect(w).toContainEqual({ code: 'open_tcp_port', subjects: [2404] });
    expect(w).toContainEqual({ code: 'no_encryption', subjects: ['pew_mqtt', 'pew_sql'] });
    expect(w).toContainEqual({ code: 'smtp_no_tls', subjects: ['pew_email'] });
    expect(w).toContainEqual({ code: 'iec_unencrypted', subjects: ['pew_60870'] });
    c.pew_mqtt = { ...c.pew_mqtt, broker_addr: 'mqtts://broker.local' };
    expect(securityWarnings(c, off).find((x) => x.code === 'no_encryption')?.subjects).toEqual(['pew_sql']);
  });
  it('FTP is encrypted with explicit FTPS as with implicit SSL, plain without either', () => {
    const c = defaults();
    const ftp = (modes: Record<string, boolean>) => {
      c.pew_ftpc = { ...c.pew_ftpc, enable_ftp: true, transfermode_ftps: false, transfermode_ssl: false, ...modes };
      return securityWarnings(c, off).find((x) => x.code === 'no_encryption')?.subjects ?? [];
    };
    expect(ftp({})).toEqual(['pew_ftpc']);
    expect(ftp({ transfermode_ftps: true })).toEqual([]);
    expect(ftp({ transfermode_ssl: true })).toEqual([]);
  });
  it('warns about VNC, autorun and the VPN without NTP', () => {
    const w = securityWarnings(defaults(), [
      { name: 'x11vnc', enabled: true },
      { name: 'autorun', enabled: true },
      { name: 'cloud', enabled: true },
      { name: 'ntpd', enabled: false },
    ]);
    expect(w.map((x) => x.code)).toEqual(['vnc_unencrypted', 'autorun_enabled', 'vpn_without_ntp']);
  });
  it('warns about log files that write to internal storage more than once a minute', () => {
    const c = defaults();
    c.pew_log = withDefaults(pew_log.schema, {
      enable_log: true,
      storage: 0,
      log_def: [
        { trigger: 1, cycle: 5, delay_store: 10 },
        { trigger: 1, cycle: 1, delay_store: 2 },
      ],
    }) as Record<string, unknown>;
    expect(securityWarnings(c, off)).toContainEqual({ code: 'frequent_writes', subjects: [1, 2] });
    c.pew_log = { ...c.pew_log, storage: 1 };
    expect(securityWarnings(c, off)).toEqual([]);
  });
});
