// The FTP, HTTP client and e-mail pages (spec §2 service layout, §3 fields, §5 rules, §8 messages):
// title and every field of the section, the fields that only apply to some settings, a complete
// setup saved, reloaded and read back from the daemon, reset to the defaults, invalid values refused
// by the console and by the daemon with the same code, and the read-only view of the user role; the
// HTTP client's custom headers (added and removed, a secret one a password field masked after the
// save, a name the unit sets itself refused with its message).

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import type { SectionDef } from '../../device/model/section.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_email } from '../../device/model/sections/email.ts';
import { pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_httpc } from '../../device/model/sections/httpc.ts';
import {
  api,
  consoleSuite,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  loginApi,
  openConsole,
  pageBody,
  saveRefusal,
  USER,
} from './support.ts';

type Values = Record<string, unknown>;
type PageId = 'ftp' | 'httpc' | 'smtp';

interface Invalid {
  /** filled in this order */
  set: Values;
  /** the field that gets the message (else the last one filled) */
  path?: string;
  code: Exclude<keyof typeof en.errors, 'reasons'>;
  params?: Record<string, number | string | string[]>;
}

interface PageCase {
  id: PageId;
  def: SectionDef;
  /** fields not shown with the defaults (they do not apply) */
  hiddenAtDefaults: string[];
  /** a complete valid setup, in the order a user fills it (switches before the fields they show) */
  setup: Values;
  invalid: Invalid[];
}

const CASES: PageCase[] = [
  {
    id: 'ftp',
    def: pew_ftpc,
    hiddenAtDefaults: ['local_ip', 'transfermode_verify_ssl', 'proxy_port', 'proxy_mode_ascii'],
    setup: {
      enable_ftp: true,
      plc_control_dt: 400,
      plc_poll: 5,
      store_send: true,
      server_ip: 'ftp.example.com',
      server_port: 990,
      server_user: 'plc',
      server_password: 'Ftp!pass9',
      transfermode_passive: false,
      local_ip: '192.168.1.20',
      transfermode_ascii: true,
      transfermode_ftps: false,
      transfermode_ssl: true,
      transfermode_verify_ssl: false,
      server_dir: 'upload/plc',
      local_dir: 'logs/day',
      local_file: 'values.csv',
      proxy_ip: 'proxy.example.com',
      proxy_port: 2100,
      proxy_mode_ascii: true,
      ca: 'ca.pem',
      client: 'client.crt',
      key: 'key.key',
    },
    invalid: [
      { set: { server_port: 70000 }, code: 'out_of_range', params: { min: 1, max: 65535 } },
      { set: { server_ip: 'bad host!' }, code: 'invalid_host' },
      { set: { local_file: '1values.csv' }, code: 'invalid_file_name' },
    ],
  },
  {
    id: 'httpc',
    def: pew_httpc,
    hiddenAtDefaults: ['proxy_port', 'proxy_user', 'proxy_password'],
    setup: {
      enable_httpc: true,
      plc_control_dt: 500,
      plc_poll: 10,
      server_addr: 'https://data.example.com:8443/plc/values',
      transfermode_ssl: true,
      transfermode_verify_ssl: false,
      server_user: 'plc',
      server_password: 'Http!pass1',
      proxy_addr: '10.0.0.8',
      proxy_port: 3128,
      proxy_user: 'proxyuser',
      proxy_password: 'Proxy!pw2',
      content_type: 'json',
      ca: 'ca.crt',
      client: 'client.pem',
      key: 'key.pem',
    },
    invalid: [
      { set: { server_addr: 'ftp://data.example.com/' }, code: 'invalid_host' },
      // spec §5 security: a ticked SSL never ends in plain HTTP, nor https in an unticked one
      {
        set: { server_addr: 'https://data.example.com/', transfermode_ssl: false },
        path: 'server_addr',
        code: 'invalid_value',
        params: { allowed: ['http://'] },
      },
      { set: { proxy_addr: 'proxy.example.com', proxy_port: 0 }, code: 'out_of_range', params: { min: 1, max: 65535 } },
    ],
  },
  {
    id: 'smtp',
    def: pew_email,
    hiddenAtDefaults: ['server_pop3imap', 'server_port_pop3imap', 'proxy_port'],
    setup: {
      enable_email: true,
      plc_control_dt: 600,
      plc_poll: 3,
      store_send: true,
      emailmode: 2,
      server_smtp: 'smtp.example.com',
      server_smtp_port: 0,
      server_pop3imap: 'imap.example.com',
      server_port_pop3imap: 993,
      transfermode_ssl: true,
      transfermode_verify_ssl: false,
      server_user: 'plc@example.com',
      server_password: 'Mail!pw12',
      sender: '<plc@example.com>',
      recipients: '<a@example.com>, <b@example.org>',
      subject: 'Alarm from line 3',
      proxy_ip: 'socks.example.com',
      proxy_port: 1081,
      ca: 'ca.crt',
      client: 'client.crt',
      key: 'key.pem',
    },
    invalid: [
      { set: { recipients: 'a@example.com, b@example.org' }, code: 'invalid_email' },
      { set: { sender: 'plc@example.com' }, code: 'invalid_email' },
      { set: { server_smtp_port: 70000 }, code: 'out_of_range', params: { min: 0, max: 65535 } },
    ],
  },
];

/** The message of an error code as the console shows it (lists joined with commas). */
const message = (code: Exclude<keyof typeof en.errors, 'reasons'>, params: Invalid['params'] = {}) =>
  fill(en.errors[code], Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])));

/** the section's fields that are one input each (a list such as the HTTP headers has its own rows) */
const fieldsOf = (c: PageCase) => Object.entries(defaultsOf(c.def) as Values).flatMap(([k, v]) => (Array.isArray(v) ? [] : [k]));
const labelOf = (c: PageCase, path: string) =>
  (en.fields as unknown as Record<string, Record<string, { label: string; options?: Record<string, string> }>>)[c.def.key]![path]!;

/** Types a value into a field the way a user does: tick, pick or type. */
async function setField(page: Page, key: string, path: string, value: unknown) {
  const input = fieldInput(page, key, path);
  const kind = await input.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : (e as HTMLInputElement).type));
  if (kind === 'checkbox') await input.setChecked(value === true);
  else if (kind === 'select') await input.selectOption(String(value));
  else await input.fill(String(value));
}

/** What a field shows: ticked or not, or its text. */
async function shownValue(page: Page, key: string, path: string): Promise<unknown> {
  const input = fieldInput(page, key, path);
  return (await input.getAttribute('type')) === 'checkbox' ? input.isChecked() : input.inputValue();
}
const asShown = (v: unknown) => (typeof v === 'boolean' ? v : String(v));

describe('the FTP, HTTP client and e-mail pages', () => {
  const suite = consoleSuite();

  for (const c of CASES) {
    const key = c.def.key;
    const defaults = defaultsOf(c.def) as Values;
    const title = en.nav[c.id];

    it(`${c.id}: title and every field; a complete setup saved, reloaded and stored; reset brings the defaults`, async () => {
      const { page } = await suite.open();
      await loginApi(page, suite.d);
      await openConsole(page, suite.d, `/${c.id}`);
      await expectTitle(page, title);
      const body = pageBody(page, c.id);
      await fieldInput(page, key, 'plc_control_dt').waitFor();
      for (const group of [en.service.general, en.service.specific, en.service.certificates, en.service.downloads])
        await expectText(body.locator('h2', { hasText: group }), group);
      expect(await body.locator(`[data-servicetest=${key}] [data-action=servicetest]`).count()).toBe(1);
      expect(await body.locator('.downloads a').count()).toBe(2);
      expect(await body.locator(`[data-certs=${key}] input[type=file]`).count()).toBe(3); // ca, client, key uploads

      // with the defaults: the fields that do not apply are not shown, every other one is, with its label
      for (const path of fieldsOf(c)) {
        const hidden = c.hiddenAtDefaults.includes(path);
        expect(await fieldInput(page, key, path).count(), path).toBe(hidden ? 0 : 1);
        if (!hidden) await expectText(body.locator(`label[for="f-${key}-${path}"]`), labelOf(c, path).label);
        if (!hidden) expect(await shownValue(page, key, path), path).toEqual(asShown(defaults[path]));
      }

      // a complete setup: every field of the section shown and filled
      for (const [path, value] of Object.entries(c.setup)) await setField(page, key, path, value);
      for (const path of fieldsOf(c)) expect(await fieldInput(page, key, path).count(), path).toBe(1);
      expect(await body.locator('.error').count()).toBe(0);
      await page.locator('.page-bar [data-action=save]').click();
      await expectNotice(page, 'info', en.form.notice.saved);

      const masked = { ...defaults, ...c.setup };
      for (const p of c.def.passwords) masked[p] = PASSWORD_MASK;
      const a = await api(page, suite.d);
      expect((await a.get(`/config/${key}`)).body).toEqual(masked);

      await page.reload();
      await expectTitle(page, title);
      await fieldInput(page, key, 'plc_control_dt').waitFor();
      await expect.poll(() => shownValue(page, key, 'plc_control_dt')).toBe(String(c.setup.plc_control_dt));
      for (const path of fieldsOf(c)) expect(await shownValue(page, key, path), path).toEqual(asShown(masked[path]));

      // reset: the defaults in the fields, stored when saved
      await page.locator('.page-bar [data-action=reset]').click();
      await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.reset }).click();
      await expect.poll(() => shownValue(page, key, 'plc_control_dt')).toBe(String(defaults.plc_control_dt));
      for (const path of c.hiddenAtDefaults) expect(await fieldInput(page, key, path).count(), path).toBe(0);
      expect((await a.get(`/config/${key}`)).body).toEqual(masked);
      await page.locator('.page-bar [data-action=save]').click();
      await expectNotice(page, 'info', en.form.notice.saved);
      expect((await a.get(`/config/${key}`)).body).toEqual(defaults);
    });

    it(`${c.id}: invalid values get the §5/§8 message and are refused on save; the daemon refuses them with the same code`, async () => {
      const { page } = await suite.open();
      await loginApi(page, suite.d);
      await openConsole(page, suite.d, `/${c.id}`);
      await expectTitle(page, title);
      await fieldInput(page, key, 'plc_control_dt').waitFor();
      const a = await api(page, suite.d);
      const stored = (await a.get(`/config/${key}`)).body as Values;
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
      });

      for (const bad of c.invalid) {
        const entries = Object.entries(bad.set);
        const path = bad.path ?? entries[entries.length - 1]![0];
        for (const [p, value] of entries) await setField(page, key, p, value);
        const shown = page.locator(`[data-field=${path}] .error`);
        await expectText(shown, message(bad.code, bad.params));
        expect(await fieldInput(page, key, path).getAttribute('aria-invalid'), path).toBe('true');

        // save: refused in the console with the field named, nothing posted
        await page.locator('.page-bar [data-action=save]').click();
        const refusal = saveRefusal([[`${en.nav[c.id]}, ${labelOf(c, path).label}`, message(bad.code, bad.params)]]);
        await expectText(page.locator('.notices .notice.error span', { hasText: refusal }), refusal);
        expect(posts).toEqual([]);

        // the daemon: the same value refused with the same code and params, nothing stored
        const r = await a.post(`/config/${key}`, { ...stored, ...bad.set });
        expect(r.status, path).toBe(400);
        const issue = (r.body.error.issues as { path: string; code: string; params?: Values }[]).find((i) => i.path === path);
        expect(issue, path).toMatchObject({ path, code: bad.code, ...(bad.params ? { params: bad.params } : {}) });
        expect(await shown.textContent()).toBe(message(issue!.code as Invalid['code'], issue!.params as Invalid['params']));
        expect((await a.get(`/config/${key}`)).body).toEqual(stored);

        // the stored values back: the message goes
        for (const [p] of entries.reverse()) await setField(page, key, p, stored[p]);
        await expect.poll(() => shown.count()).toBe(0);
      }
    });
  }

  it('an invalid field stays visible when the setting that shows it is cleared; port 0 reads "autodetect"; the §5 security hints', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);

    await openConsole(page, suite.d, '/httpc');
    await expectTitle(page, en.nav.httpc);
    const proxyPort = fieldInput(page, 'pew_httpc', 'proxy_port');
    await setField(page, 'pew_httpc', 'proxy_addr', 'proxy.example.com');
    await setField(page, 'pew_httpc', 'proxy_port', 0);
    await setField(page, 'pew_httpc', 'proxy_addr', '');
    await expectText(page.locator('[data-field=proxy_port] .error'), message('out_of_range', { min: 1, max: 65535 }));
    expect(await proxyPort.count()).toBe(1);
    await setField(page, 'pew_httpc', 'proxy_port', 8080);
    await expect.poll(() => proxyPort.count()).toBe(0);
    // plain HTTP while enabled: the "no encryption" warning of the system page, here as well
    const httpHint = page.locator('[data-security=no_encryption]');
    expect(await httpHint.count()).toBe(0);
    await setField(page, 'pew_httpc', 'enable_httpc', true);
    await setField(page, 'pew_httpc', 'server_addr', 'http://data.example.com/in');
    await setField(page, 'pew_httpc', 'transfermode_ssl', false);
    await expectText(httpHint, fill(en.info.warning.no_encryption, { subjects: en.nav.httpc }));
    expect(await fieldInput(page, 'pew_httpc', 'transfermode_verify_ssl').count()).toBe(0);
    await page.locator('.page-bar [data-action=reset]').click();
    await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => httpHint.count()).toBe(0);
    // the stored settings are the defaults: after the reset nothing is left to save
    await expect.poll(() => page.locator('.page-bar [data-action=save]').isDisabled()).toBe(true);

    await openConsole(page, suite.d, '/smtp');
    await expectTitle(page, en.nav.smtp);
    const auto = en.fields.pew_email.server_smtp_port.options['0'];
    await expectText(page.locator('[data-field=server_smtp_port] .unit'), auto);
    await setField(page, 'pew_email', 'server_smtp_port', 587);
    await expect.poll(() => page.locator('[data-field=server_smtp_port] .unit').count()).toBe(0);
    await setField(page, 'pew_email', 'emailmode', 1);
    await expectText(page.locator('[data-field=server_port_pop3imap] .unit'), auto);
    const mailHint = page.locator('[data-security=smtp_no_tls]');
    await setField(page, 'pew_email', 'enable_email', true);
    expect(await mailHint.count()).toBe(0);
    await setField(page, 'pew_email', 'transfermode_ssl', false);
    await expectText(mailHint, en.info.warning.smtp_no_tls);
    await page.locator('.page-bar [data-action=reset]').click();
    await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => mailHint.count()).toBe(0);
    // the stored settings are the defaults: after the reset nothing is left to save
    await expect.poll(() => page.locator('.page-bar [data-action=save]').isDisabled()).toBe(true);

    await openConsole(page, suite.d, '/ftp');
    await expectTitle(page, en.nav.ftp);
    const ftpHint = page.locator('[data-security=no_encryption]');
    await setField(page, 'pew_ftpc', 'enable_ftp', true);
    await expectText(ftpHint, fill(en.info.warning.no_encryption, { subjects: en.nav.ftp }));
    await setField(page, 'pew_ftpc', 'transfermode_ssl', true);
    await expect.poll(() => ftpHint.count()).toBe(0);
    await fieldInput(page, 'pew_ftpc', 'transfermode_verify_ssl').waitFor();
  });

  it('httpc: custom headers added and removed; a secret value is a password field, masked after the save and kept; a reserved name is refused', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/httpc');
    await expectTitle(page, en.nav.httpc);
    const key = 'pew_httpc';
    const body = pageBody(page, 'httpc');
    const add = body.locator('[data-action=add-header]');
    await expectText(body.locator('[data-headers] [data-count]'), en.service.headers.none);
    await add.click();
    await add.click();
    await expectText(body.locator('[data-headers] [data-count]'), fill(en.service.headers.count, { count: 2, max: 4 }));
    await expectText(body.locator('label[for="f-pew_httpc-headers-0-name"]'), en.fields.pew_httpc.headers.name.label);
    await setField(page, key, 'headers.0.name', 'X-Api-Key');
    await setField(page, key, 'headers.0.value', 'k-12345');
    expect(await fieldInput(page, key, 'headers.0.value').getAttribute('type')).toBe('text');
    await setField(page, key, 'headers.0.secret', true);
    await expect.poll(() => fieldInput(page, key, 'headers.0.value').getAttribute('type')).toBe('password');

    // a name the unit sets itself: the message in the user's language, as the daemon gives it
    await setField(page, key, 'headers.1.name', 'Content-Type');
    await expectText(page.locator('[data-field="headers.1.name"] .error'), message('header_reserved', { name: 'Content-Type' }));
    await setField(page, key, 'headers.1.name', 'X Site');
    await expectText(page.locator('[data-field="headers.1.name"] .error'), message('header_name_invalid'));
    await body.locator('[data-header="1"] [data-action=remove-header]').click();
    await expect.poll(() => body.locator('[data-header]').count()).toBe(1);

    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    const a = await api(page, suite.d);
    expect(((await a.get(`/config/${key}`)).body as Values).headers).toEqual([{ name: 'X-Api-Key', value: PASSWORD_MASK, secret: true }]);
    await page.reload();
    await fieldInput(page, key, 'headers.0.value').waitFor();
    expect(await fieldInput(page, key, 'headers.0.value').inputValue()).toBe(PASSWORD_MASK);
    expect(await fieldInput(page, key, 'headers.0.value').getAttribute('type')).toBe('password');
    // unticking Secret would show the stored key: it must be typed again
    await setField(page, key, 'headers.0.secret', false);
    await expectText(page.locator('[data-field="headers.0.value"] .error'), message('password_required'));
    await setField(page, key, 'headers.0.secret', true);
    await expect.poll(() => page.locator('[data-field="headers.0.value"] .error').count()).toBe(0);

    await page.locator('.page-bar [data-action=reset]').click();
    await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => body.locator('[data-header]').count()).toBe(0);
    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    expect(((await a.get(`/config/${key}`)).body as Values).headers).toEqual([]);
  });

  it('the user role sees the three pages read-only', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d, USER);
    for (const c of CASES) {
      await openConsole(page, suite.d, `/${c.id}`);
      await expectTitle(page, en.nav[c.id]);
      await fieldInput(page, c.def.key, 'plc_control_dt').waitFor();
      const controls = pageBody(page, c.id).locator('input, select, textarea, button');
      const states = await controls.evaluateAll((els) => els.map((e) => [(e as HTMLInputElement).name || e.tagName, (e as HTMLInputElement).disabled]));
      expect(states.length).toBeGreaterThanOrEqual(fieldsOf(c).length - c.hiddenAtDefaults.length);
      expect(states.filter(([, disabled]) => !disabled)).toEqual([]);
      expect(await page.locator('[data-action=save], [data-action=reset], [data-action=save-all]').count()).toBe(0);
      await expectText(page.locator('.page-bar .badge'), en.shell.readOnly);
      const a = await api(page, suite.d);
      const stored = await a.get(`/config/${c.def.key}`);
      expect(stored.status).toBe(200);
      expect((await a.post(`/config/${c.def.key}`, { ...stored.body, plc_poll: 7 })).status).toBe(403);
    }
  });
});
