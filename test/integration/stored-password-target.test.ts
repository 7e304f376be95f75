// security.md SEC-2 (issue 16 item 5): a stored password, shown masked, is never delivered to a
// server, port or proxy other than the one it was saved for. A save (one section or save-all) that
// changes a target and sends the mask back is refused with `password_required` and stores nothing;
// the connection test and the running service only ever use the saved settings, so the secret stays
// with its old peer until the password is typed again. The same holds for the secret items of a
// list (a custom HTTP header marked secret).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_httpc } from '../../device/model/sections/httpc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { LOOPBACK } from '../support/ports.ts';
import { serviceTestCalls } from './service-test-calls.ts';

let d: TestDaemon;
let admin: Client;
const { save, runTest } = serviceTestCalls(() => ({ d, admin }));

/** An HTTP server that records the Authorization header of every request. */
async function recorder(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, LOOPBACK, () => r()));
  return { url: `http://${LOOPBACK}:${(server.address() as { port: number }).port}/plc`, seen, server };
}

const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
let a: Awaited<ReturnType<typeof recorder>>;
let b: Awaited<ReturnType<typeof recorder>>;

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  [a, b] = await Promise.all([recorder(), recorder()]);
});
afterAll(async () => {
  for (const r of [a, b]) r?.server.close();
  await d?.stop();
});

describe('HTTP client: the server address changes, the mask comes back', () => {
  const httpc = () => ({ ...defaultsOf(pew_httpc), transfermode_ssl: false, server_user: 'plc' });

  it('refuses the save with password_required, keeps the stored section, and the test still goes to the old server only', async () => {
    await save('pew_httpc', { ...httpc(), server_addr: a.url, server_password: 'Old-Secret1' });
    const shown = (await admin.get('/config/pew_httpc')).body;
    expect(shown.server_password).toBe(PASSWORD_MASK);

    const moved = await admin.post('/config/pew_httpc', { ...shown, server_addr: b.url });
    expect(moved.status).toBe(400);
    expect(moved.body.error.issues).toEqual([
      { section: 'pew_httpc', path: 'server_password', code: 'password_required', params: { fields: ['server_addr'] } },
    ]);
    // the same through save-all
    const all = await admin.post('/config', { pew_httpc: { ...shown, server_addr: b.url } });
    expect(all.status).toBe(400);
    expect(all.body.error.issues[0]).toMatchObject({ section: 'pew_httpc', path: 'server_password', code: 'password_required' });
    expect((await admin.get('/config/pew_httpc')).body.server_addr).toBe(a.url);

    await runTest('pew_httpc');
    expect(a.seen).toEqual([basic('plc', 'Old-Secret1')]);
    expect(b.seen).toEqual([]);
  });

  it('keeps the stored password with the mask while the target stays the same', async () => {
    const shown = (await admin.get('/config/pew_httpc')).body;
    expect((await admin.post('/config/pew_httpc', { ...shown, plc_poll: 5 })).status).toBe(200);
    a.seen.length = 0;
    await runTest('pew_httpc');
    expect(a.seen).toEqual([basic('plc', 'Old-Secret1')]);
  });

  it('a changed proxy asks for both passwords that would pass it', async () => {
    const shown = (await admin.get('/config/pew_httpc')).body;
    await save('pew_httpc', { ...shown, proxy_password: 'Proxy-Pw1' }); // same target: the server password stays
    const again = (await admin.get('/config/pew_httpc')).body;
    const r = await admin.post('/config/pew_httpc', { ...again, proxy_port: again.proxy_port + 1 });
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toEqual([
      { section: 'pew_httpc', path: 'server_password', code: 'password_required', params: { fields: ['proxy_port'] } },
      { section: 'pew_httpc', path: 'proxy_password', code: 'password_required', params: { fields: ['proxy_port'] } },
    ]);
  });

  it('saves the new server once the password is typed again, and the test sends that password there', async () => {
    const shown = (await admin.get('/config/pew_httpc')).body;
    await save('pew_httpc', { ...shown, server_addr: b.url, server_password: 'New-Secret2', proxy_password: '' });
    await runTest('pew_httpc');
    expect(b.seen).toEqual([basic('plc', 'New-Secret2')]);
  });
});

// every section with a stored password and a target: a changed value of each target field
const MOVES: Record<string, { base: Record<string, unknown>; moved: Record<string, unknown> }> = {
  pew_httpc: {
    base: { server_addr: 'https://a.example/x', proxy_addr: 'proxy-a.example', proxy_port: 8080 },
    moved: { server_addr: 'https://b.example/x', proxy_addr: 'proxy-b.example', proxy_port: 3128 },
  },
  pew_email: {
    base: {
      server_smtp: 'smtp-a.example',
      server_smtp_port: 25,
      server_pop3imap: 'pop-a.example',
      server_port_pop3imap: 110,
      proxy_ip: 'socks-a.example',
      proxy_port: 1080,
    },
    moved: {
      server_smtp: 'smtp-b.example',
      server_smtp_port: 587,
      server_pop3imap: 'pop-b.example',
      server_port_pop3imap: 995,
      proxy_ip: 'socks-b.example',
      proxy_port: 1081,
    },
  },
  pew_ftpc: {
    base: { server_ip: 'ftp-a.example', server_port: 21, proxy_ip: 'proxy-a.example', proxy_port: 21 },
    moved: { server_ip: 'ftp-b.example', server_port: 2121, proxy_ip: 'proxy-b.example', proxy_port: 2121 },
  },
  pew_mqtt: { base: { broker_addr: 'mqtt://a.example:1883' }, moved: { broker_addr: 'mqtt://b.example:1883' } },
  pew_sql: { base: { server: 'sql-a.example', port: 1433 }, moved: { server: 'sql-b.example', port: 1434 } },
  pew_nosql: { base: { server: 'mongodb://a.example:27017' }, moved: { server: 'mongodb://b.example:27017' } },
};

// the REST API key is the one stored secret the unit receives instead of sending it: it has no target
const RECEIVED = ['pew_api'];
const sending = () => CONFIG_SECTIONS.filter((x) => x.passwords.length > 0 && !RECEIVED.includes(x.key));

describe('every service section with a stored password', () => {
  it('names its target fields (and this test knows them all)', () => {
    for (const key of RECEIVED) expect(CONFIG_SECTIONS.find((x) => x.key === key)!.targets, key).toBeUndefined();
    const withPasswords = sending();
    expect(withPasswords.map((s) => s.key).sort()).toEqual(Object.keys(MOVES).sort());
    for (const s of withPasswords) {
      const fields = new Set(Object.values(s.targets ?? {}).flat());
      expect([...fields].sort(), s.key).toEqual(Object.keys(MOVES[s.key]!.base).sort());
    }
  });

  it('refuses each changed target with the mask, and accepts it with the password typed again', async () => {
    for (const s of sending()) {
      const { base, moved } = MOVES[s.key]!;
      const lists = Object.entries(s.secretLists ?? {});
      // one secret item in each list that can hold them, e.g. a custom HTTP header marked secret
      const item = (spec: { key: string; value: string; flag: string }, value: string) => ({ [spec.key]: 'X-Secret', [spec.value]: value, [spec.flag]: true });
      const secrets = {
        ...Object.fromEntries(s.passwords.map((p) => [p, 'Stored-Pw1'])),
        ...Object.fromEntries(lists.map(([list, spec]) => [list, [item(spec, 'Stored-Pw1')]])),
      };
      await save(s.key, { ...(defaultsOf(s) as object), ...base, ...secrets });
      const shown = (await admin.get(`/config/${s.key}`)).body;
      for (const p of s.passwords) expect(shown[p], `${s.key}.${p}`).toBe(PASSWORD_MASK);
      for (const [list, spec] of lists) expect(shown[list], `${s.key}.${list}`).toEqual([item(spec, PASSWORD_MASK)]);
      for (const [field, value] of Object.entries(moved)) {
        const r = await admin.post(`/config/${s.key}`, { ...shown, [field]: value });
        expect(r.status, `${s.key}.${field}`).toBe(400);
        const asked = (r.body.error.issues as { path: string; code: string }[]).filter((i) => i.code === 'password_required').map((i) => i.path);
        const targeted = Object.entries(s.targets!)
          .filter(([, f]) => f.includes(field))
          .map(([p]) => p);
        const expected = targeted.map((p) => (s.secretLists?.[p] ? `${p}.0.${s.secretLists[p].value}` : p));
        expect(asked, `${s.key}.${field}`).toEqual(expected);
        expect((await admin.get(`/config/${s.key}`)).body, `${s.key}.${field} stored unchanged`).toEqual(shown);
        const typed = Object.fromEntries(
          targeted.map((p) => {
            const spec = s.secretLists?.[p];
            return [p, spec ? [item(spec, 'Typed-Again1')] : 'Typed-Again1'];
          }),
        );
        expect((await admin.post(`/config/${s.key}`, { ...shown, [field]: value, ...typed })).status, `${s.key}.${field} typed`).toBe(200);
        await save(s.key, { ...shown, ...secrets }); // back to the base target for the next field
      }
    }
  });
});
