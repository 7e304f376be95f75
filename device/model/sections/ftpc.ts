// FTP client (spec §3 "FTP (pew_ftpc)", §5, §9 control register 200 + 6, FTP port 21).
import * as v from 'valibot';
import { certName, controlRegister } from '../common.ts';
import { bool, fileNameText, hostText, ipText, num, obj, remotePort, secret, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection } from '../section.ts';

export const FTP_REGISTERS = 6; // spec §9: FTP control register offset
export const FTP_PORT = 21; // spec §9
export const FILE_NAME_MAX = 30; // spec §9: file name 30

// a directory on the unit: relative path of file-name characters, never leaving the FTP area
const LOCAL_DIR_RE = /^[A-Za-z0-9_./-]*$/;
const localDir = () =>
  text(
    128,
    '',
    v.check((s: string) => LOCAL_DIR_RE.test(s) && !s.split('/').includes('..'), msg('invalid_characters')),
  );

export const ftpcSchema = obj({
  enable_ftp: bool(false),
  plc_control_dt: controlRegister(200, FTP_REGISTERS), // spec §9: default 200
  plc_poll: num(1, 120, 1), // spec §9: poll time 1-120 s
  transfermode_passive: bool(true), // passive mode works through NAT and firewalls
  transfermode_ascii: bool(false), // binary transfer unless ASCII is chosen
  transfermode_ftps: bool(false), // explicit FTPS (AUTH TLS on the control connection)
  transfermode_ssl: bool(false), // implicit TLS from the first byte
  transfermode_verify_ssl: bool(true), // the server certificate must verify
  store_send: bool(false), // on: sent (renamed) files stay on the unit; off: deleted by the next send that reaches the server (spec §4 "deleted later"; docs/ftp.md)
  proxy_mode_ascii: bool(false), // the FTP proxy is logged into as USER user@host in plain text
  local_ip: ipText(''), // address announced in active mode; empty = the unit's own
  server_ip: hostText(''),
  server_port: remotePort(FTP_PORT),
  server_user: text(64),
  server_password: secret(),
  server_dir: text(128), // directory on the server
  local_dir: localDir(),
  local_file: fileNameText(FILE_NAME_MAX), // spec §5 file name rule
  proxy_ip: hostText(''), // empty = no proxy
  proxy_port: remotePort(FTP_PORT),
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
});
export type Ftpc = v.InferOutput<typeof ftpcSchema>;

function rules(f: Ftpc): Issue[] {
  return f.enable_ftp && f.server_ip === '' ? [issue('server_ip', 'required')] : [];
}

export const pew_ftpc = defineSection({
  key: 'pew_ftpc',
  index: 3,
  schema: ftpcSchema,
  passwords: ['server_password'],
  targets: { server_password: ['server_ip', 'server_port', 'proxy_ip', 'proxy_port'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (f) => (f.enable_ftp ? [{ path: 'plc_control_dt', start: f.plc_control_dt, length: FTP_REGISTERS }] : []),
});
