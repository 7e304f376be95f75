import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_tls } from './tls.ts';

const client = (x: any) => Object.assign(x, { enable_tlsclient: true, tls_server_host: 'plc-gw.example.com' });
const server = (x: any) =>
  Object.assign(x, { enable_tlsserver: true, nontls_server_host: '192.168.1.5', tlsservercert: 'server.pem', tlsserverkey: 'key.pem' });

describe('pew_tls', () => {
  it('defaults: both parts off, TLS 1.2 minimum, registers 360 and 362 (spec §3, §9)', () => {
    const d = defaultsOf(pew_tls);
    expect(d).toMatchObject({ enable_tlsclient: false, enable_tlsserver: false, plc_control_dt: 360, plc_status_dt: 362 });
    expect(d).toMatchObject({ tls_min_version_client: '1.2', tls_min_version_server: '1.2', tlsclient_certauth: 0, tlsserver_certauth: 0 });
    expect(d).toMatchObject({ nontls_server_port: 1502, tls_server_port: 8802, tls_destination_port: 802, nontls_destination_port: 502 });
    expectAccepted(pew_tls, () => {});
    expect(pew_tls.passwords).toEqual([]);
  });

  it('registers and ports are in use per enabled part', () => {
    const d = defaultsOf(pew_tls);
    expect(pew_tls.registers!(d)).toEqual([]);
    expect(pew_tls.ports!(d)).toEqual([]);
    expect(pew_tls.registers!(client(defaultsOf(pew_tls)))).toEqual([{ path: 'plc_control_dt', start: 360, length: 2 }]);
    expect(pew_tls.ports!(client(defaultsOf(pew_tls)))).toEqual([{ path: 'nontls_server_port', port: 1502 }]);
    const both = server(client(defaultsOf(pew_tls)));
    expect(pew_tls.registers!(both)).toEqual([
      { path: 'plc_control_dt', start: 360, length: 2 },
      { path: 'plc_status_dt', start: 362, length: 2 },
    ]);
    expect(pew_tls.ports!(both)).toEqual([
      { path: 'nontls_server_port', port: 1502 },
      { path: 'tls_server_port', port: 8802 },
    ]);
  });

  it('control and status blocks of 2 must fit the DT area', () => {
    for (const f of ['plc_control_dt', 'plc_status_dt']) {
      expectAccepted(pew_tls, (x) => (x[f] = 999423));
      expectRejected(pew_tls, (x) => (x[f] = 999424), f, 'address_out_of_range', { min: 0, max: 999423 });
    }
  });

  it('poll 1-120 s for both parts (spec §9)', () => {
    expectRange(pew_tls, (x, n) => (x.plc_poll = n), 'plc_poll', 1, 120, 0.1);
    expectRange(pew_tls, (x, n) => (x.plc_poll_tlsserver = n), 'plc_poll_tlsserver', 1, 120, 0.1);
  });

  it('ports: non-TLS server from 500, TLS server from 1025, destinations 1-65535 (spec §5)', () => {
    expectRange(pew_tls, (x, n) => (x.nontls_server_port = n), 'nontls_server_port', 500, 65535);
    expectRange(pew_tls, (x, n) => (x.tls_server_port = n), 'tls_server_port', 1025, 65535);
    expectRejected(pew_tls, (x) => (x.tls_server_port = 8081), 'tls_server_port', 'port_unallowed');
    expectRejected(pew_tls, (x) => (x.nontls_server_port = 5900), 'nontls_server_port', 'port_unallowed');
    expectRange(pew_tls, (x, n) => (x.tls_destination_port = n), 'tls_destination_port', 1, 65535);
    expectRange(pew_tls, (x, n) => (x.nontls_destination_port = n), 'nontls_destination_port', 1, 65535);
  });

  it('TLS versions none, 1.1, 1.2, 1.3 and authentication 0/1 (spec §3)', () => {
    expectAccepted(pew_tls, (x) => Object.assign(x, { tls_min_version_client: '1.3', tls_min_version_server: 'none' }));
    expectRejected(pew_tls, (x) => (x.tls_min_version_server = '1.0'), 'tls_min_version_server', 'invalid_value');
    expectRejected(pew_tls, (x) => (x.tlsserver_certauth = 2), 'tlsserver_certauth', 'invalid_value', { allowed: [0, 1] });
  });

  it('client part: destination host required; client certificate authentication needs cert and key', () => {
    expectRejected(pew_tls, (x) => (x.enable_tlsclient = true), 'tls_server_host', 'required');
    expectAccepted(pew_tls, client);
    expectRejected(pew_tls, (x) => Object.assign(client(x), { tlsclient_certauth: 1 }), 'tlsclientcert', 'required');
    expectRejected(pew_tls, (x) => Object.assign(client(x), { tlsclient_certauth: 1 }), 'tlsclientkey', 'required');
    expectAccepted(pew_tls, (x) => Object.assign(client(x), { tlsclient_certauth: 1, tlsclientcert: 'client.der', tlsclientkey: 'key.key' }));
  });

  it('server part: plain host, certificate and key required; client certificates need a CA', () => {
    for (const f of ['nontls_server_host', 'tlsservercert', 'tlsserverkey'])
      expectRejected(pew_tls, (x) => Object.assign(server(x), { [f]: '' }), f, 'required');
    expectAccepted(pew_tls, server);
    expectRejected(pew_tls, (x) => Object.assign(server(x), { tlsserver_certauth: 1 }), 'tlsserverca', 'required');
    expectAccepted(pew_tls, (x) => Object.assign(server(x), { tlsserver_certauth: 1, tlsserverca: 'ca.cer' }));
  });

  it('TLS certificate names also take .der and .cer (spec §5)', () => {
    expectAccepted(pew_tls, (x) => Object.assign(x, { tlsclientca: 'ca.der', tlsservercert: 'server.cer' }));
    expectRejected(pew_tls, (x) => (x.tlsservercert = 'client.pem'), 'tlsservercert', 'file_base_name');
    expectRejected(pew_tls, (x) => (x.tlsserverkey = 'key.der'), 'tlsserverkey', 'file_extension');
  });

  it('access ranges: end not below start; required while restricted (spec §5)', () => {
    expectRejected(pew_tls, (x) => Object.assign(x, { nontls_access_ip1: '10.0.0.9', nontls_access_ip2: '10.0.0.8' }), 'nontls_access_ip2', 'ip_range');
    expectAccepted(pew_tls, (x) => Object.assign(x, { tls_access_ip1: '10.0.0.8', tls_access_ip2: '10.0.0.8' }));
    expectRejected(pew_tls, (x) => Object.assign(x, { tls_access_ip1: '10.0.1.0', tls_access_ip2: '10.0.0.255' }), 'tls_access_ip2', 'ip_range');
    expectAccepted(pew_tls, (x) => Object.assign(client(x), { nontls_accessability: true }));
    expectRejected(pew_tls, (x) => Object.assign(client(x), { nontls_accessability: true, nontls_access_ip1: '' }), 'nontls_access_ip1', 'required');
    expectRejected(pew_tls, (x) => Object.assign(server(x), { tls_accessability: true, tls_access_ip2: '' }), 'tls_access_ip2', 'required');
    expectRejected(pew_tls, (x) => (x.tls_access_ip1 = '1.2.3.4.5'), 'tls_access_ip1', 'invalid_ip');
  });
});
