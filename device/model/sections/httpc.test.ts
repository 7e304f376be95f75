import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection, unmaskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { pew_httpc } from './httpc.ts';

const on = (x: any) => Object.assign(x, { enable_httpc: true, server_addr: 'https://api.example.com/data' });

describe('pew_httpc', () => {
  it('defaults: off, control register 240, HTTPS with verification (spec §9)', () => {
    const d = defaultsOf(pew_httpc);
    expect(d).toMatchObject({ enable_httpc: false, plc_control_dt: 240, plc_poll: 1, transfermode_ssl: true, transfermode_verify_ssl: true });
    expect(d).toMatchObject({ server_addr: '', proxy_addr: '', proxy_port: 8080 });
    expectAccepted(pew_httpc, () => {});
  });

  it('the 14-register control block is reserved only while enabled and must fit the DT area', () => {
    expect(pew_httpc.registers!(defaultsOf(pew_httpc))).toEqual([]);
    expect(pew_httpc.registers!(on(defaultsOf(pew_httpc)))).toEqual([{ path: 'plc_control_dt', start: 240, length: 14 }]);
    expectAccepted(pew_httpc, (x) => (x.plc_control_dt = 999424 - 13));
    expectRejected(pew_httpc, (x) => (x.plc_control_dt = 999424 - 12), 'plc_control_dt', 'address_out_of_range', { min: 0, max: 999411 });
  });

  it('poll 1-120 s and proxy port 1-65535 (spec §9)', () => {
    expectRange(pew_httpc, (x, n) => (x.plc_poll = n), 'plc_poll', 1, 120, 0.1);
    expectRange(pew_httpc, (x, n) => (x.proxy_port = n), 'proxy_port', 1, 65535);
  });

  it('server URL: required when enabled, http(s) only, 512 characters', () => {
    expectRejected(pew_httpc, (x) => (x.enable_httpc = true), 'server_addr', 'required');
    for (const ok of ['https://api.example.com/data', 'https://10.0.0.5:8443/in?x=1'])
      expectAccepted(pew_httpc, (x) => Object.assign(on(x), { server_addr: ok }));
    for (const bad of ['ftp://host/x', 'https://user:pw@host/', 'api.example.com'])
      expectRejected(pew_httpc, (x) => (x.server_addr = bad), 'server_addr', 'invalid_host');
    const url = (n: number) => `https://h.de/${'p'.repeat(n - 'https://h.de/'.length)}`;
    expectAccepted(pew_httpc, (x) => (x.server_addr = url(512)));
    expectRejected(pew_httpc, (x) => (x.server_addr = url(513)), 'server_addr', 'too_long', { max: 512 });
  });

  it('the URL scheme agrees with the SSL setting', () => {
    expectRejected(pew_httpc, (x) => (x.server_addr = 'http://h.de/'), 'server_addr', 'invalid_value', { allowed: ['https://'] });
    expectAccepted(pew_httpc, (x) => Object.assign(x, { transfermode_ssl: false, server_addr: 'http://h.de/' }));
    expectRejected(pew_httpc, (x) => Object.assign(x, { transfermode_ssl: false, server_addr: 'https://h.de/' }), 'server_addr', 'invalid_value', {
      allowed: ['http://'],
    });
  });

  it('proxy host and user limits', () => {
    expectAccepted(pew_httpc, (x) => (x.proxy_addr = 'proxy.local'));
    expectRejected(pew_httpc, (x) => (x.proxy_addr = 'http://proxy'), 'proxy_addr', 'invalid_host');
    expectMaxLength(pew_httpc, (x, s) => (x.server_user = s), 'server_user', 64);
    expectMaxLength(pew_httpc, (x, s) => (x.proxy_user = s), 'proxy_user', 64);
  });

  it('both passwords masked on read and kept when the mask comes back', () => {
    expect(pew_httpc.passwords).toEqual(['server_password', 'proxy_password']);
    const stored = { ...defaultsOf(pew_httpc), server_password: 'a', proxy_password: 'b' };
    const shown = maskSection(pew_httpc, stored);
    expect([shown.server_password, shown.proxy_password]).toEqual([PASSWORD_MASK, PASSWORD_MASK]);
    const back = unmaskSection(pew_httpc, { ...shown, proxy_password: 'c' }, stored);
    expect([back.server_password, back.proxy_password]).toEqual(['a', 'c']);
  });

  it('certificate names (spec §5)', () => {
    expectAccepted(pew_httpc, (x) => Object.assign(x, { ca: 'ca.pem', client: 'client.csr', key: 'key.key' }));
    expectRejected(pew_httpc, (x) => (x.key = 'key.der'), 'key', 'file_extension');
  });
});
