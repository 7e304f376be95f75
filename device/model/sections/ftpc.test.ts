import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection, unmaskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { pew_ftpc } from './ftpc.ts';

const on = (x: any) => Object.assign(x, { enable_ftp: true, server_ip: 'ftp.example.com' });

describe('pew_ftpc', () => {
  it('defaults: off, control register 200, port 21, passive binary transfer (spec §9)', () => {
    const d = defaultsOf(pew_ftpc);
    expect(d).toMatchObject({ enable_ftp: false, plc_control_dt: 200, server_port: 21, proxy_port: 21, plc_poll: 1 });
    expect(d).toMatchObject({ transfermode_passive: true, transfermode_ascii: false, transfermode_verify_ssl: true, server_ip: '' });
    expectAccepted(pew_ftpc, () => {});
  });

  it('the 6-register control block is reserved only while enabled and must fit the DT area', () => {
    expect(pew_ftpc.registers!(defaultsOf(pew_ftpc))).toEqual([]);
    expect(pew_ftpc.registers!(on(defaultsOf(pew_ftpc)))).toEqual([{ path: 'plc_control_dt', start: 200, length: 6 }]);
    expectAccepted(pew_ftpc, (x) => (x.plc_control_dt = 999424 - 5));
    expectRejected(pew_ftpc, (x) => (x.plc_control_dt = 999424 - 4), 'plc_control_dt', 'address_out_of_range', { min: 0, max: 999419 });
  });

  it('poll 1-120 s and remote ports 1-65535 (spec §9)', () => {
    expectRange(pew_ftpc, (x, n) => (x.plc_poll = n), 'plc_poll', 1, 120, 0.1);
    expectRange(pew_ftpc, (x, n) => (x.server_port = n), 'server_port', 1, 65535);
    expectRange(pew_ftpc, (x, n) => (x.proxy_port = n), 'proxy_port', 1, 65535);
  });

  it('server required when enabled; host names and dotted quads', () => {
    expectRejected(pew_ftpc, (x) => (x.enable_ftp = true), 'server_ip', 'required');
    for (const ok of ['ftp.example.com', '192.168.0.10']) expectAccepted(pew_ftpc, (x) => Object.assign(on(x), { server_ip: ok }));
    expectRejected(pew_ftpc, (x) => (x.server_ip = 'ftp://host'), 'server_ip', 'invalid_host');
    // digits and dots are an address, and must be a valid one; a name never ends in an all-digit label
    for (const bad of ['999.1.1.1', '10.0.0', '1.2.3.4.5']) expectRejected(pew_ftpc, (x) => (x.server_ip = bad), 'server_ip', 'invalid_ip');
    expectRejected(pew_ftpc, (x) => (x.server_ip = 'plant.7'), 'server_ip', 'invalid_host');
    expectAccepted(pew_ftpc, (x) => Object.assign(on(x), { server_ip: '7plant.example' }));
    expectRejected(pew_ftpc, (x) => (x.proxy_ip = 'a b'), 'proxy_ip', 'invalid_host');
    expectRejected(pew_ftpc, (x) => (x.local_ip = '10.0.0.256'), 'local_ip', 'invalid_ip');
  });

  it('local file: spec §5 file name rule, 30 characters (spec §9)', () => {
    expectMaxLength(pew_ftpc, (x, s) => (x.local_file = s), 'local_file', 30);
    expectAccepted(pew_ftpc, (x) => (x.local_file = '_log_2024.csv'));
    for (const bad of ['1log.csv', 'log file.csv', 'log-1.csv', 'dir/log.csv'])
      expectRejected(pew_ftpc, (x) => (x.local_file = bad), 'local_file', 'invalid_file_name');
  });

  it('local directory stays inside the unit area; text limits', () => {
    expectAccepted(pew_ftpc, (x) => (x.local_dir = 'out/today'));
    expectRejected(pew_ftpc, (x) => (x.local_dir = 'out/../../etc'), 'local_dir', 'invalid_characters');
    expectRejected(pew_ftpc, (x) => (x.local_dir = 'my dir'), 'local_dir', 'invalid_characters');
    expectMaxLength(pew_ftpc, (x, s) => (x.local_dir = s), 'local_dir', 128);
    expectMaxLength(pew_ftpc, (x, s) => (x.server_dir = s), 'server_dir', 128);
    expectMaxLength(pew_ftpc, (x, s) => (x.server_user = s), 'server_user', 64);
  });

  it('certificate names (spec §5)', () => {
    expectAccepted(pew_ftpc, (x) => Object.assign(x, { ca: 'ca.crt', client: 'client.pem', key: 'key.pem' }));
    expectRejected(pew_ftpc, (x) => (x.ca = 'ca.der'), 'ca', 'file_extension');
    expectRejected(pew_ftpc, (x) => (x.client = 'server.pem'), 'client', 'file_base_name');
  });

  it('password masked on read and kept when the mask comes back', () => {
    expect(pew_ftpc.passwords).toEqual(['server_password']);
    const stored = { ...defaultsOf(pew_ftpc), server_password: 'pw' };
    const shown = maskSection(pew_ftpc, stored);
    expect(shown.server_password).toBe(PASSWORD_MASK);
    expect(unmaskSection(pew_ftpc, shown, stored).server_password).toBe('pw');
  });

  it('unknown keys are refused', () => {
    expectRejected(pew_ftpc, (x) => (x.sftp = true), 'sftp', 'unknown_key');
  });
});
