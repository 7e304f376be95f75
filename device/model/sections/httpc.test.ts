import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { clearSecrets, isSecretPath, restoreSecrets } from '../secrets.ts';
import { defaultsOf, maskSection, staleMaskIssues, unmaskSection, validateSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { HEADER_NAME_MAX, HEADER_VALUE_MAX, type Httpc, pew_httpc } from './httpc.ts';

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

  it('content type: octet-stream by default (stored settings keep their bodies), JSON, text or form', () => {
    expect(defaultsOf(pew_httpc).content_type).toBe('octet-stream');
    for (const ok of ['json', 'text', 'form', 'octet-stream']) expectAccepted(pew_httpc, (x) => (x.content_type = ok));
    expectRejected(pew_httpc, (x) => (x.content_type = 'application/json'), 'content_type', 'invalid_value');
  });
});

const header = (name: string, value = 'v', secret = false) => ({ name, value, secret });

describe('pew_httpc custom headers', () => {
  it('up to 4, none by default', () => {
    expect(defaultsOf(pew_httpc).headers).toEqual([]);
    expectAccepted(pew_httpc, (x) => (x.headers = ['X-A', 'X-B', 'X-C', 'X-D'].map((n) => header(n))));
    expectRejected(pew_httpc, (x) => (x.headers = ['X-A', 'X-B', 'X-C', 'X-D', 'X-E'].map((n) => header(n))), 'headers', 'too_many', { max: 4 });
  });

  it('a name is an RFC 7230 token of at most 64 characters, and required', () => {
    for (const ok of ['X-Api-Key', 'Accept', "x!#$%&'*+-.^_`|~9"]) expectAccepted(pew_httpc, (x) => (x.headers = [header(ok)]));
    for (const bad of ['X Api', 'X:Key', 'Ke(y)', 'Schlüssel', 'a\r\nb', 'x"y', 'a/b'])
      expectRejected(pew_httpc, (x) => (x.headers = [header(bad)]), 'headers.0.name', 'header_name_invalid');
    expectRejected(pew_httpc, (x) => (x.headers = [header('')]), 'headers.0.name', 'required');
    expectMaxLength(pew_httpc, (x, s) => (x.headers = [header(s)]), 'headers.0.name', HEADER_NAME_MAX);
  });

  it('a value has no CR, LF, NUL or other control character (a tab is fine), only Latin-1, at most 512 characters', () => {
    for (const ok of ['', 'Bearer abc.def', 'a\tb', 'caf\u00e9']) expectAccepted(pew_httpc, (x) => (x.headers = [header('X-A', ok)]));
    for (const bad of ['a\r\nX-Evil: 1', 'a\nb', 'a\u0000b', 'a\u007fb', 'a\u001bb', '\u20ac 5'])
      expectRejected(pew_httpc, (x) => (x.headers = [header('X-A', bad)]), 'headers.0.value', 'header_value_invalid');
    expectMaxLength(pew_httpc, (x, s) => (x.headers = [header('X-A', s)]), 'headers.0.value', HEADER_VALUE_MAX);
  });

  it('names the unit sets itself are refused, in any case; so is Authorization while the server user logs in', () => {
    for (const [name, shown] of [
      ['Host', 'Host'],
      ['content-length', 'Content-Length'],
      ['CONTENT-TYPE', 'Content-Type'],
      ['Transfer-Encoding', 'Transfer-Encoding'],
      ['connection', 'Connection'],
    ])
      expectRejected(pew_httpc, (x) => (x.headers = [header(name!)]), 'headers.0.name', 'header_reserved', { name: shown });
    expectAccepted(pew_httpc, (x) => (x.headers = [header('Authorization', 'Bearer t', true)]));
    expectRejected(
      pew_httpc,
      (x) => Object.assign(x, { server_user: 'plc', headers: [header('authorization', 'Bearer t')] }),
      'headers.0.name',
      'header_reserved',
      {
        name: 'Authorization',
      },
    );
  });

  it('a name once, whatever its case', () => {
    expectRejected(pew_httpc, (x) => (x.headers = [header('X-Site'), header('x-site')]), 'headers.1.name', 'duplicate');
  });
});

describe('pew_httpc secret headers: masked like the passwords', () => {
  const stored: Httpc = {
    ...defaultsOf(pew_httpc),
    server_addr: 'https://api.example.com/in',
    server_password: 'pw',
    headers: [header('X-Api-Key', 'k-123', true), header('X-Site', 'north')],
  };

  it('a secret value is masked on read, a plain one is not; an empty secret shows empty', () => {
    const shown = maskSection(pew_httpc, stored);
    expect(shown.headers).toEqual([header('X-Api-Key', PASSWORD_MASK, true), header('X-Site', 'north')]);
    expect(stored.headers[0]!.value).toBe('k-123'); // the stored copy is left alone
    expect(maskSection(pew_httpc, { ...stored, headers: [header('X-Api-Key', '', true)] }).headers[0]!.value).toBe('');
  });

  it('round trip: the mask that comes back keeps the stored value, found by the header’s name (its place may change)', () => {
    const shown = maskSection(pew_httpc, stored);
    expect(staleMaskIssues(pew_httpc, shown, stored)).toEqual([]);
    expect(unmaskSection(pew_httpc, shown, stored)).toEqual(stored);
    const moved = { ...shown, headers: [header('X-New', 'x'), shown.headers[1]!, { ...shown.headers[0]!, name: 'x-api-key' }] };
    expect(staleMaskIssues(pew_httpc, moved, stored)).toEqual([]);
    expect(unmaskSection(pew_httpc, moved, stored).headers.map((x) => x.value)).toEqual(['x', 'north', 'k-123']);
    const typed = { ...shown, headers: [header('X-Api-Key', 'k-456', true)] };
    expect(unmaskSection(pew_httpc, typed, stored).headers[0]!.value).toBe('k-456');
    expect(validateSection(pew_httpc, unmaskSection(pew_httpc, shown, stored)).ok).toBe(true);
  });

  it('a masked secret is typed again when the server changes, the header is renamed or no longer secret (security.md SEC-2)', () => {
    const shown = maskSection(pew_httpc, stored);
    expect(staleMaskIssues(pew_httpc, { ...shown, server_addr: 'https://evil.example/' }, stored)).toEqual(
      expect.arrayContaining([{ path: 'headers.0.value', code: 'password_required', params: { fields: ['server_addr'] } }]),
    );
    const renamed = { ...shown, headers: [{ ...shown.headers[0]!, name: 'X-Token' }] };
    expect(staleMaskIssues(pew_httpc, renamed, stored)).toEqual([
      { path: 'headers.0.value', code: 'password_required', params: { fields: ['headers.0.name'] } },
    ]);
    const revealed = { ...shown, headers: [{ ...shown.headers[0]!, secret: false }] };
    expect(staleMaskIssues(pew_httpc, revealed, stored)).toEqual([
      { path: 'headers.0.value', code: 'password_required', params: { fields: ['headers.0.secret'] } },
    ]);
    expect(unmaskSection(pew_httpc, revealed, stored).headers[0]!.value).toBe(PASSWORD_MASK); // never the stored key in clear
    // asterisks typed into a header that was never secret are a value like any other
    const plain = { ...shown, headers: [shown.headers[0]!, header('X-Site', PASSWORD_MASK)] };
    expect(staleMaskIssues(pew_httpc, plain, stored)).toEqual([]);
  });

  it('a backup without a password holds no secret header; its restore keeps the unit’s', () => {
    const bare = clearSecrets(pew_httpc, stored);
    expect(bare.headers).toEqual([header('X-Api-Key', '', true), header('X-Site', 'north')]);
    expect(bare.server_password).toBe('');
    expect(restoreSecrets(pew_httpc, bare, stored)).toEqual(stored);
  });

  it('the console shows a secret value as a password field', () => {
    expect(isSecretPath(pew_httpc, stored, 'headers.0.value')).toBe(true);
    expect(isSecretPath(pew_httpc, stored, 'headers.1.value')).toBe(false);
    expect(isSecretPath(pew_httpc, stored, 'server_password')).toBe(true);
    expect(isSecretPath(pew_httpc, undefined, 'proxy_password')).toBe(true);
  });
});
