// Where the connection tests of MQTT, FTP, HTTP client and e-mail go and how they read an answer
// (spec §3, §5 port 0 autodetect), from the saved settings alone: the broker URL with its scheme,
// TLS and port; the FTP proxy login; the HTTP status reasons; the autodetected mail ports.
import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../model/section.ts';
import { pew_ftpc } from '../model/sections/ftpc.ts';
import { ftpTarget } from './ftp-client.ts';
import { statusFailure } from './http-test.ts';
import { pop3imapPort, smtpCandidates } from './mail-test.ts';
import { brokerTarget } from './mqtt-test.ts';

describe('MQTT broker address', () => {
  it("takes the scheme and port given, else mqtt and the scheme's default port", () => {
    expect(brokerTarget({ broker_addr: 'broker.plant', tls_version: 'none' })).toEqual({
      scheme: 'mqtt',
      host: 'broker.plant',
      port: 1883,
      tls: false,
      url: 'mqtt://broker.plant:1883',
    });
    expect(brokerTarget({ broker_addr: 'mqtts://10.0.0.5', tls_version: 'none' })).toMatchObject({ scheme: 'mqtts', port: 8883, tls: true });
    expect(brokerTarget({ broker_addr: 'ws://10.0.0.5:9001/', tls_version: 'none' })).toMatchObject({
      scheme: 'ws',
      port: 9001,
      tls: false,
      url: 'ws://10.0.0.5:9001',
    });
    expect(brokerTarget({ broker_addr: 'wss://b', tls_version: 'none' })).toMatchObject({ scheme: 'wss', port: 443, tls: true });
  });

  it('a minimum TLS version turns a plain address into TLS (as the "no encryption" warning reads it)', () => {
    expect(brokerTarget({ broker_addr: 'b:8884', tls_version: '1.2' })).toMatchObject({ scheme: 'mqtts', port: 8884, tls: true, url: 'mqtts://b:8884' });
    // without a port, the TLS scheme's default
    expect(brokerTarget({ broker_addr: 'mqtt://b', tls_version: '1.3' })).toMatchObject({ scheme: 'mqtts', port: 8883, tls: true });
    expect(brokerTarget({ broker_addr: 'ws://b', tls_version: '1.2' })).toMatchObject({ scheme: 'wss', port: 443, tls: true });
  });
});

describe('FTP target', () => {
  const base = { ...defaultsOf(pew_ftpc), server_ip: 'ftp.plant', server_user: 'plc' };
  it('goes to the server, or to the proxy with the server in the user name (proxy_mode_ascii)', () => {
    expect(ftpTarget(base)).toEqual({ host: 'ftp.plant', port: 21, user: 'plc' });
    expect(ftpTarget({ ...base, server_user: '' }).user).toBe('anonymous');
    expect(ftpTarget({ ...base, proxy_ip: 'proxy', proxy_port: 2121, proxy_mode_ascii: true })).toEqual({
      host: 'proxy',
      port: 2121,
      user: 'plc@ftp.plant',
      via: 'proxy:2121',
    });
    expect(ftpTarget({ ...base, server_port: 2100, proxy_ip: 'proxy', proxy_mode_ascii: true }).user).toBe('plc@ftp.plant:2100');
    expect(ftpTarget({ ...base, proxy_ip: 'relay', proxy_mode_ascii: false })).toEqual({ host: 'relay', port: 21, user: 'plc', via: 'relay:21' });
  });
});

describe('HTTP status', () => {
  it("401 and 407 are a wrong login, 404 and 410 a wrong path, other errors the server's; 2xx and 3xx pass", () => {
    expect(statusFailure(401, '401 Unauthorized')).toMatchObject({ reason: 'auth_failed', message: '401 Unauthorized' });
    expect(statusFailure(407, '407 Proxy Authentication Required')?.reason).toBe('auth_failed');
    expect(statusFailure(404, '404 Not Found')?.reason).toBe('not_found');
    expect(statusFailure(410, '410 Gone')?.reason).toBe('not_found');
    expect(statusFailure(500, '500 Internal Server Error')?.reason).toBe('peer_error');
    expect(statusFailure(403, '403 Forbidden')?.reason).toBe('peer_error');
    expect(statusFailure(200, '200 OK')).toBeUndefined();
    expect(statusFailure(302, '302 Found')).toBeUndefined();
  });
});

describe('mail ports (spec §5: 0 = autodetect)', () => {
  it('SMTP tries implicit TLS first, then submission and SMTP; POP3 and IMAP take their TLS or plain port', () => {
    expect(smtpCandidates(true)).toEqual([465, 587, 25]);
    expect(smtpCandidates(false)).toEqual([587, 25]);
    expect([pop3imapPort(1, true), pop3imapPort(1, false), pop3imapPort(2, true), pop3imapPort(2, false)]).toEqual([995, 110, 993, 143]);
  });
});
