// TLS client and server bridging (spec §3 "TLS (pew_tls)", §5 ports, §9 control register 360 + 2,
// status 362). The client part takes plain connections on nontls_server_port and carries them over
// TLS to tls_server_host; the server part takes TLS on tls_server_port and carries it in plain text
// to nontls_server_host. The default ports bridge Modbus/TCP (502) and Modbus/TCP Security (802).
import type * as v from 'valibot';
import { certName, controlRegister, ipRangeIssues, TLS_VERSIONS } from '../common.ts';
import { bool, choice, hostText, ipText, listenPort, num, obj, remotePort } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection, type PortUse, type RegisterBlock } from '../section.ts';

export const TLS_REGISTERS = 2; // spec §9: TLS control register offset
export const NONTLS_PORT_MIN = 500; // spec §5: a non-TLS server port has a minimum of 500
// spec §3: TLS authentication 0 public key, 1 client certificate
export const CERT_AUTH = [0, 1] as const;
export const CLIENT_CERT = 1;

export const tlsSchema = obj({
  // client part
  enable_tlsclient: bool(false),
  plc_control_dt: controlRegister(360, TLS_REGISTERS), // spec §9: default 360
  plc_poll: num(1, 120, 1), // spec §9: poll time 1-120 s
  tlsclientca: certName('ca', true),
  tlsclientcert: certName('client', true),
  tlsclientkey: certName('key', true),
  tls_min_version_client: choice(TLS_VERSIONS, '1.2'), // spec §3: 1.2 or 1.3 for new setups
  nontls_server_port: listenPort(1502, NONTLS_PORT_MIN),
  nontls_accessability: bool(false), // only nontls_access_ip1..ip2 may connect
  nontls_access_ip1: ipText('0.0.0.0'),
  nontls_access_ip2: ipText('0.0.0.0'),
  tls_server_host: hostText(''),
  tls_destination_port: remotePort(802),
  ca_verification_tlsclient: bool(true),
  tlsclient_certauth: choice(CERT_AUTH, 0),
  // server part
  enable_tlsserver: bool(false),
  plc_status_dt: controlRegister(362, TLS_REGISTERS), // spec §9: status 362
  plc_poll_tlsserver: num(1, 120, 1), // spec §9: poll time 1-120 s
  tls_min_version_server: choice(TLS_VERSIONS, '1.2'),
  tls_server_port: listenPort(8802),
  tls_accessability: bool(false), // only tls_access_ip1..ip2 may connect
  tls_access_ip1: ipText('0.0.0.0'),
  tls_access_ip2: ipText('0.0.0.0'),
  nontls_destination_port: remotePort(502),
  nontls_server_host: hostText(''),
  tlsserver_certauth: choice(CERT_AUTH, 0),
  tlsserverca: certName('ca', true),
  tlsservercert: certName('server', true),
  tlsserverkey: certName('key', true),
});
export type Tls = v.InferOutput<typeof tlsSchema>;

const required = (t: Tls, fields: readonly (keyof Tls)[]) => fields.filter((f) => t[f] === '').map((f) => issue(f, 'required'));

function rules(t: Tls): Issue[] {
  const out = [
    ...ipRangeIssues(t.nontls_access_ip1, t.nontls_access_ip2, 'nontls_access_ip1', 'nontls_access_ip2', t.enable_tlsclient && t.nontls_accessability),
    ...ipRangeIssues(t.tls_access_ip1, t.tls_access_ip2, 'tls_access_ip1', 'tls_access_ip2', t.enable_tlsserver && t.tls_accessability),
  ];
  if (t.enable_tlsclient) {
    out.push(...required(t, ['tls_server_host']));
    if (t.tlsclient_certauth === CLIENT_CERT) out.push(...required(t, ['tlsclientcert', 'tlsclientkey']));
  }
  if (t.enable_tlsserver) {
    // a TLS server always presents a certificate; checking client certificates needs their CA
    out.push(...required(t, ['nontls_server_host', 'tlsservercert', 'tlsserverkey']));
    if (t.tlsserver_certauth === CLIENT_CERT) out.push(...required(t, ['tlsserverca']));
  }
  return out;
}

function registers(t: Tls): RegisterBlock[] {
  const out: RegisterBlock[] = [];
  if (t.enable_tlsclient) out.push({ path: 'plc_control_dt', start: t.plc_control_dt, length: TLS_REGISTERS });
  if (t.enable_tlsserver) out.push({ path: 'plc_status_dt', start: t.plc_status_dt, length: TLS_REGISTERS });
  return out;
}

function ports(t: Tls): PortUse[] {
  const out: PortUse[] = [];
  if (t.enable_tlsclient) out.push({ path: 'nontls_server_port', port: t.nontls_server_port });
  if (t.enable_tlsserver) out.push({ path: 'tls_server_port', port: t.tls_server_port });
  return out;
}

export const pew_tls = defineSection({
  key: 'pew_tls',
  index: 8,
  schema: tlsSchema,
  passwords: [],
  rules,
  registers,
  ports,
});
