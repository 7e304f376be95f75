// /script in chromium (spec §2, §3 Script, §5 .cfg, §7 get_defscript, writefile,
// download/pew_script.cfg, upload; §9 FTP send limits): every field filled, saved, kept after a
// reload and reset to the defaults; invalid values refused inline and by the daemon with the same
// code; the editor's text written into the active script file, downloaded, and a .cfg file
// uploaded and chosen as the active script.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { SCRIPT_MAX } from '../../device/model/sections/scriptfile.ts';
import { DEFAULT_SCRIPT } from '../../device/system/default-script.ts';
import { api, consoleSuite, en, expectNotice, expectText, expectTitle, fieldInput, fill, loginApi, menuLink, openConsole, RETRY_RESET } from './support.ts';

describe('the script page', () => {
  const suite = consoleSuite();
  const input = (page: Page, path: string) => fieldInput(page, 'pew_script', path);
  const editor = (page: Page) => page.locator('#f-script_file-content');
  const save = (page: Page) => page.locator('.page-bar [data-action=save]');
  const saved = (page: Page) => expectNotice(page, 'info', en.form.notice.saved);
  const scriptFile = (name: string) => readFile(join(suite.d.dataDir, 'scripts', name), 'utf8').catch(() => undefined);
  const stored = async (page: Page, key: string) => (await (await api(page, suite.d)).get(`/config/${key}`)).body;

  it('fill every field and the editor, save, reload; reset brings back the defaults', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    await expectTitle(page, en.nav.script);
    const defaults = await stored(page, 'pew_script');
    expect(await input(page, 'ftp_send_cycle').inputValue()).toBe(String(defaults.ftp_send_cycle));

    await input(page, 'enable_script').check();
    await input(page, 'script_file').fill('line_b.cfg');
    await input(page, 'ftp_transmission').check();
    await input(page, 'transmission_btime').fill('86400');
    await input(page, 'ftp_send_cycle').fill('60');
    await input(page, 'ftp_repeats').fill('9');
    await input(page, 'file_ext_replacement').fill('sent');
    // the default script: no question while the editor is empty
    await page.locator('[data-action=load-default]').click();
    await expect.poll(() => editor(page).inputValue()).toBe(DEFAULT_SCRIPT);
    await save(page).click();
    await saved(page);
    expect(await stored(page, 'pew_script')).toEqual({
      enable_script: true,
      script_file: 'line_b.cfg',
      ftp_transmission: true,
      transmission_btime: 86400,
      ftp_send_cycle: 60,
      ftp_repeats: 9,
      file_ext_replacement: 'sent',
    });
    expect(await stored(page, 'script_file')).toEqual({ content: DEFAULT_SCRIPT });
    await expect.poll(() => scriptFile('line_b.cfg')).toBe(DEFAULT_SCRIPT); // the page's save wrote the active file
    await expect.poll(() => page.locator('tr[data-script="line_b.cfg"] [data-active]').count()).toBe(1);

    await page.reload();
    await expectTitle(page, en.nav.script);
    await expect.poll(() => input(page, 'ftp_send_cycle').inputValue()).toBe('60');
    expect(await input(page, 'script_file').inputValue()).toBe('line_b.cfg');
    expect(await input(page, 'file_ext_replacement').inputValue()).toBe('sent');
    expect(await input(page, 'enable_script').isChecked()).toBe(true);
    expect(await editor(page).inputValue()).toBe(DEFAULT_SCRIPT);

    // loading the default over a text asks first
    await editor(page).fill('[init]\n');
    await page.locator('[data-action=load-default]').click();
    await expectText(page.locator('[role=alertdialog] #dlg-text'), en.script.defaultText);
    await page.locator('[role=alertdialog] button', { hasText: en.script.keep }).click();
    expect(await editor(page).inputValue()).toBe('[init]\n');

    await page.locator('.page-bar [data-action=reset]').click();
    await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.reset }).click();
    await expect.poll(() => input(page, 'ftp_send_cycle').inputValue()).toBe(String(defaults.ftp_send_cycle));
    // the editor's section resets beside the form's: wait for it as for the field above
    await expect.poll(() => editor(page).inputValue()).toBe('');
    await save(page).click();
    await saved(page);
    expect(await stored(page, 'pew_script')).toEqual(defaults);
    expect(await stored(page, 'script_file')).toEqual({ content: '' });
  });

  it('invalid values: the message inline, the save refused, the daemon answers the same code', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    const before = await stored(page, 'pew_script');
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/config')) posts.push(r.url());
    });
    const a = await api(page, suite.d);
    const cases: [string, string, string, Record<string, number>?][] = [
      ['ftp_send_cycle', '59', 'out_of_range', { min: 60, max: 86400 }],
      ['transmission_btime', '86401', 'out_of_range', { min: 0, max: 86400 }],
      ['ftp_repeats', '10', 'out_of_range', { min: 0, max: 9 }],
      ['file_ext_replacement', 'a-b', 'invalid_characters'],
      ['script_file', 'run.txt', 'invalid_file_name'],
    ];
    for (const [path, value, code, params] of cases) {
      await input(page, path).fill(value);
      const text = params ? fill(en.errors[code as 'out_of_range'], params) : en.errors[code as 'invalid_characters'];
      await expectText(page.locator(`[data-field=${path}] .error`), text);
      const typed = /^\d+$/.test(value) ? Number(value) : value;
      const r = await a.post('/config/pew_script', { ...before, [path]: typed });
      expect(r.status, path).toBe(400);
      expect(
        r.body.error.issues.find((i: { path: string }) => i.path === path),
        path,
      ).toEqual({ section: 'pew_script', path, code, ...(params ? { params } : {}) });
    }
    await save(page).click();
    await page.locator('.notices .notice.error').first().waitFor();
    expect(posts).toEqual([]);
    expect(await stored(page, 'pew_script')).toEqual(before);

    // the editor over its limit: the message, no write; the daemon refuses the same text with the same code
    await editor(page).fill('x'.repeat(SCRIPT_MAX + 1));
    await expectText(page.locator('[data-field=content] .error'), fill(en.errors.too_long, { max: SCRIPT_MAX }));
    expect(await page.locator('[data-action=write-file]').isDisabled()).toBe(true);
    const w = await a.post('/config/writefile', { content: 'x'.repeat(SCRIPT_MAX + 1) });
    expect(w.status).toBe(400);
    expect(w.body.error.issues).toContainEqual({ section: 'script_file', path: 'content', code: 'too_long', params: { max: SCRIPT_MAX } });
    expect(new Set(w.body.error.issues.map((i: { code: string }) => i.code))).toEqual(new Set(['too_long']));
    expect(posts).toEqual([]);

    await menuLink(page, 'mqtt').click();
    await page.locator('[role=alertdialog] button.danger', { hasText: en.confirm.leave }).click();
    await expectTitle(page, en.nav.mqtt);
  });

  it('the editor writes the active file; download; a .cfg uploaded and chosen', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    await expectTitle(page, en.nav.script);
    const text = '# shift report\n[cycle 300]\nread count = DT 10 UDINT\nappend count\n';
    await editor(page).fill(text);
    await expect.poll(() => menuLink(page, 'script').locator('.mark').getAttribute('class')).toBe('mark changed');
    await page.locator('[data-action=write-file]').click();
    await expectNotice(page, 'info', fill(en.script.written, { name: 'pew_script.cfg' }));
    expect(await scriptFile('pew_script.cfg')).toBe(text);
    expect(await stored(page, 'script_file')).toEqual({ content: text });
    await expect.poll(() => menuLink(page, 'script').locator('.mark').count()).toBe(0); // written = saved

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action=download-script]').click()]);
    expect(download.suggestedFilename()).toBe('pew_script.cfg');
    expect(await readFile(await download.path(), 'utf8')).toBe(text);

    const night = '# night shift\n[cycle 3600]\nsend\n';
    await page.locator('#script-upload').setInputFiles({ name: 'night_shift.cfg', mimeType: 'text/plain', buffer: Buffer.from(night) });
    await expectNotice(page, 'info', fill(en.script.uploaded, { name: 'night_shift.cfg' }));
    await page.locator('tr[data-script="night_shift.cfg"]').waitFor();
    expect(await scriptFile('night_shift.cfg')).toBe(night);
    // a file that is no script is refused with the reason
    await page.locator('#script-upload').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expectText(page.locator('[data-field=upload-script] .error'), `${en.script.uploadFailed} ${fill(en.errors.file_extension, { allowed: '.cfg' })}`);

    await page.locator('tr[data-script="night_shift.cfg"] [data-action=use-script]').click();
    await expect.poll(() => input(page, 'script_file').inputValue()).toBe('night_shift.cfg');
    await expect.poll(() => editor(page).inputValue()).toBe(night);
    await save(page).click();
    await saved(page);
    expect((await stored(page, 'pew_script')).script_file).toBe('night_shift.cfg');
    await expect.poll(() => page.locator('tr[data-script="night_shift.cfg"] [data-active]').count()).toBe(1);
    const r = await page.request.get(`${suite.d.url}/download/pew_script.cfg`, RETRY_RESET);
    expect(await r.text()).toBe(night);
    expect(await scriptFile('pew_script.cfg')).toBe(text); // the other script is kept
  });
});
