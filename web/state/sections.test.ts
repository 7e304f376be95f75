// The store of saved and temporary section copies against a fake daemon (fetch stubbed): load,
// the 'changed' flags, a failed load, save of one section and save-all, server issues, reset.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { CONFIG_KEYS } from '../../device/model/keys.ts';
import { defaultsOf } from '../../device/model/section.ts';

type Call = { method: string; url: string; body?: unknown };
let calls: Call[];
let failing: Set<string>;
let answer: (c: Call) => { status: number; body: unknown } | undefined;
const defaults = (key: string) => defaultsOf(CONFIG_SECTIONS.find((d) => d.key === key)!) as Record<string, unknown>;

beforeEach(() => {
  calls = [];
  failing = new Set();
  answer = () => undefined;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call: Call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const custom = answer(call);
    const key = url.replace('/config/', '');
    const shown = (k: string) => ({ ...defaults(k), ...(k === 'pew_mqtt' ? { broker_password: '********' } : {}) });
    // GET /config: every section in one answer; a failing section is left out of it ('all' fails the whole request)
    const all = () => Object.fromEntries(CONFIG_KEYS.filter(([k]) => !failing.has(k)).map(([k]) => [k, shown(k)]));
    const res =
      custom ??
      (failing.has(url === '/config' && call.method === 'GET' ? 'all' : key)
        ? { status: 500, body: { error: { code: 'internal', message: 'x' } } }
        : call.method === 'GET'
          ? { status: 200, body: url === '/config' ? all() : shown(key) }
          : { status: 200, body: call.body });
    return new Response(JSON.stringify(res.body), { status: res.status, headers: { 'content-type': 'application/json' } });
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const store = async () => ({ ...(await import('./sections.ts')), ...(await import('./save-sections.ts')) });

describe('section store', () => {
  it('loads every section into both copies in one request; nothing is changed', async () => {
    const s = await store();
    await s.loadSections();
    expect(calls.filter((c) => c.method === 'GET').map((c) => c.url)).toEqual(['/config']);
    expect(s.section('pew_mqtt').saved.value.broker_password).toBe('********');
    expect(s.anyChanged.value).toBe(false);
    expect(s.loaded.value).toBe(true);
  });

  it('marks a section changed when its temporary copy differs, and reverts', async () => {
    const s = await store();
    await s.loadSections();
    s.setField('pew_mqtt', 'keep_alive', 30);
    expect(s.section('pew_mqtt').changed.value).toBe(true);
    expect(s.section('pew_mqtt').saved.value.keep_alive).toBe(65);
    s.setField('pew_mqtt', 'keep_alive', 65);
    expect(s.section('pew_mqtt').changed.value).toBe(false);
    s.setField('pew_mqtt', 'keep_alive', 1);
    s.revert('pew_mqtt');
    expect(s.section('pew_mqtt').temp.value.keep_alive).toBe(65);
  });

  it('a failed load gives both copies the defaults and marks the section', async () => {
    const s = await store();
    failing.add('pew_ftpc');
    await s.loadSections();
    expect(s.section('pew_ftpc').fetchFailed.value).toBe(true);
    expect(s.section('pew_ftpc').saved.value).toEqual(defaults('pew_ftpc'));
    expect(s.section('pew_ftpc').temp.value).toEqual(defaults('pew_ftpc'));
    expect(console.error).toHaveBeenCalled();
  });

  it('asks section by section when the one request fails; each section fails alone', async () => {
    const s = await store();
    failing.add('all');
    failing.add('pew_email');
    await s.loadSections();
    const gets = calls.filter((c) => c.method === 'GET').map((c) => c.url);
    expect(gets[0]).toBe('/config');
    expect(gets.slice(1).sort()).toEqual(CONFIG_KEYS.map(([k]) => `/config/${k}`).sort());
    expect(s.section('pew_email').fetchFailed.value).toBe(true);
    expect(s.section('pew_mqtt').fetchFailed.value).toBe(false);
    expect(s.section('pew_mqtt').saved.value.broker_password).toBe('********');
    expect(s.loaded.value).toBe(true);
  });

  it('asks for a section the one answer left out on its own', async () => {
    const s = await store();
    failing.add('pew_ftpc');
    await s.loadSections();
    expect(calls.filter((c) => c.method === 'GET').map((c) => c.url)).toEqual(['/config', '/config/pew_ftpc']);
  });

  it('validates the temporary copy with the schema once the model is loaded', async () => {
    const s = await store();
    await s.loadSections();
    await (await import('./model.ts')).ensureModel();
    s.setField('pew_mqtt', 'keep_alive', 70000);
    const v = s.section('pew_mqtt').validation.value;
    expect(v).toMatchObject({ invalid: true, index: 1 });
    expect(v.issues[0]).toMatchObject({ path: 'keep_alive', code: 'out_of_range', params: { min: 0, max: 65535 } });
    expect(s.section('pew').validation.value.issues).toEqual([]); // a problem stays with its own section
  });

  it('the first render shows no check; the check is shown in a task after the console started the checks (every section checked at start cost the daemon 27 of its 36 ms for a frame, and the first render of a deep link 70-100 ms at CPU 4×)', async () => {
    vi.resetModules(); // a fresh store: no catch-up task has run yet
    answer = (c) => (c.method === 'GET' && c.url === '/config/pew_mqtt' ? { status: 200, body: { ...defaults('pew_mqtt'), keep_alive: 70000 } } : undefined);
    failing.add('all'); // each section on its own request, pew_mqtt as stored by an older version
    const s = await store();
    await s.loadSections();
    await (await import('./model.ts')).ensureModel();
    const mqtt = s.section('pew_mqtt');
    expect(mqtt.validation.value.invalid).toBe(true); // a save sees it at once
    expect(mqtt.shownValidation.value).toMatchObject({ invalid: false, issues: [] });
    // tasks pass, and the check is not shown until the console's first page is (web/after-start.ts)
    for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    expect(mqtt.shownValidation.value.invalid).toBe(false);
    s.startShownChecks();
    expect(mqtt.shownValidation.value.invalid).toBe(false); // in a task of its own
    await vi.waitFor(() => expect(mqtt.shownValidation.value.invalid).toBe(true));
    expect(mqtt.shownValidation.value.issues[0]).toMatchObject({ path: 'keep_alive', code: 'out_of_range' });
  });

  it('asks for a masked password again when its broker changes (security.md SEC-2), and not before', async () => {
    const s = await store();
    await s.loadSections();
    await (await import('./model.ts')).ensureModel();
    s.setField('pew_mqtt', 'keep_alive', 30);
    expect(s.section('pew_mqtt').validation.value.issues).toEqual([]);
    s.setField('pew_mqtt', 'broker_addr', 'mqtt://other.example:1883');
    const v = s.section('pew_mqtt').validation.value;
    expect(v.invalid).toBe(true);
    expect(v.issues).toEqual([{ path: 'broker_password', code: 'password_required', params: { fields: ['broker_addr'] } }]);
    s.setField('pew_mqtt', 'broker_password', 'Typed-Again1');
    expect(s.section('pew_mqtt').validation.value.issues).toEqual([]);
  });

  it('saves one changed section with its own request and several with one save-all request', async () => {
    const s = await store();
    await s.loadSections();
    s.setField('pew_mqtt', 'keep_alive', 30);
    expect(await s.saveSections(['pew_mqtt', 'pew_ftpc'])).toEqual(['pew_mqtt']);
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/config/pew_mqtt' });
    expect((calls.at(-1)!.body as Record<string, unknown>).broker_password).toBe('********'); // the mask keeps the stored secret
    expect(s.section('pew_mqtt').changed.value).toBe(false);

    s.setField('pew_mqtt', 'keep_alive', 31);
    s.setField('pew_rtc', 'rtc_by_plc', true);
    expect((await s.saveSections(CONFIG_KEYS.map(([k]) => k))).sort()).toEqual(['pew_mqtt', 'pew_rtc']);
    expect(calls.at(-1)!.url).toBe('/config');
    expect(Object.keys(calls.at(-1)!.body as object).sort()).toEqual(['pew_mqtt', 'pew_rtc']);
    expect(s.anyChanged.value).toBe(false);
  });

  it('keeps the edits and shows the server issues when the daemon refuses', async () => {
    const s = await store();
    await s.loadSections();
    answer = (c) =>
      c.method === 'POST'
        ? {
            status: 400,
            body: {
              error: {
                code: 'invalid_input',
                message: 'x',
                issues: [{ section: 'pew_mqtt', path: 'plc_control_dt', code: 'addresses_overlap', params: { other: 'pew_ftpc.plc_control_dt' } }],
              },
            },
          }
        : undefined;
    s.setField('pew_mqtt', 'plc_control_dt', 200);
    await expect(s.saveSections(['pew_mqtt'])).rejects.toMatchObject({ status: 400, code: 'invalid_input' });
    expect(s.section('pew_mqtt').temp.value.plc_control_dt).toBe(200);
    expect(s.section('pew_mqtt').serverIssues.value).toEqual([
      { section: 'pew_mqtt', path: 'plc_control_dt', code: 'addresses_overlap', params: { other: 'pew_ftpc.plc_control_dt' } },
    ]);
    s.setField('pew_mqtt', 'plc_control_dt', 260); // editing the field clears its server issue
    expect(s.section('pew_mqtt').serverIssues.value).toEqual([]);
  });

  it("reset puts the daemon's defaults into the temporary copy only", async () => {
    const s = await store();
    await s.loadSections();
    answer = (c) => (c.url.startsWith('/config/get_reset') ? { status: 200, body: { ...defaults('pew_mqtt'), keep_alive: 65 } } : undefined);
    s.setField('pew_mqtt', 'keep_alive', 5);
    await s.saveSections(['pew_mqtt']);
    await s.resetToDefaults('pew_mqtt');
    expect(calls.at(-1)!.url).toBe('/config/get_reset?section=pew_mqtt');
    expect(s.section('pew_mqtt').temp.value.keep_alive).toBe(65);
    expect(s.section('pew_mqtt').saved.value.keep_alive).toBe(5);
    expect(s.section('pew_mqtt').changed.value).toBe(true);
  });
});
