// Certificates on /mqtt in chromium (spec §2 certificates of the service layout, §5 names and
// extensions, §8 "Failed to upload file(s)", "upload success", "Failed to remove certificates",
// "removal success"): a certificate generated here goes through the file chooser, its subject and
// expiry show, the page's field takes its name; an invalid file is refused with its message and
// nothing is stored; a removal asks first; the user role sees the list and no upload or delete.

import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, consoleSuite, en, expectNotice, expectText, expectTitle, fieldInput, fill, loginApi, openConsole, USER } from './support.ts';

describe('certificates on /mqtt', () => {
  const suite = consoleSuite();
  let work: string;
  let caPem: Buffer;
  let validTo: Date;
  const certDir = () => join(suite.d.dataDir, 'certs', 'pew_mqtt');
  const stored = () =>
    readdir(certDir()).then(
      (n) => n.sort(),
      () => [] as string[],
    );
  const row = (page: Page, name: string) => page.locator(`[data-certs=pew_mqtt] tr[data-cert="${name}"]`);
  const dialog = (page: Page) => page.locator('[role=alertdialog]');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'e2e-certs-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=Broker CA/O=Example Works',
        '-keyout',
        'ca.key',
        '-out',
        'ca.pem',
      ],
      { cwd: work, stdio: 'ignore' },
    );
    caPem = await readFile(join(work, 'ca.pem'));
    validTo = new Date(
      execFileSync('openssl', ['x509', '-in', join(work, 'ca.pem'), '-noout', '-enddate'])
        .toString()
        .trim()
        .replace(/^notAfter=/, ''),
    );
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('upload through the file chooser: subject and expiry shown, the field named; an invalid file refused; delete after the question', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, en.nav.mqtt);
    await expectText(page.locator('[data-certs=pew_mqtt] [data-certs-empty]'), en.certs.none);

    await page.locator('#cert-pew_mqtt-ca').setInputFiles(join(work, 'ca.pem'));
    await expectNotice(page, 'info', fill(en.certs.uploaded, { name: 'ca.pem' }));
    await expectText(row(page, 'ca.pem').locator('[data-subject]'), 'CN=Broker CA, O=Example Works');
    await expectText(row(page, 'ca.pem').locator('[data-issuer]'), 'CN=Broker CA, O=Example Works');
    await expectText(row(page, 'ca.pem').locator('[data-valid-to]'), validTo.toLocaleDateString('en-GB', { timeZone: 'UTC' }));
    expect(await row(page, 'ca.pem').getAttribute('data-expired')).toBeNull();
    expect(await readFile(join(certDir(), 'ca.pem'))).toEqual(caPem);
    // the field of the section names the file; it is saved with the page
    await expect.poll(() => fieldInput(page, 'pew_mqtt', 'ca').inputValue()).toBe('ca.pem');
    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', en.form.notice.saved);
    expect((await (await api(page, suite.d)).get('/config/pew_mqtt')).body.ca).toBe('ca.pem');

    // a file that is no certificate: the §8 failure with the reason, nothing stored
    await page.locator('#cert-pew_mqtt-client').setInputFiles({
      name: 'client.pem',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from('-----BEGIN CERTIFICATE-----\nbm8=\n-----END CERTIFICATE-----\n'),
    });
    const refusal = `${en.certs.uploadFailed} ${en.errors.invalid_certificate}`;
    await expectText(page.locator('[data-cert-kind=client] .error'), refusal);
    await expectNotice(page, 'error', refusal);
    expect(await row(page, 'client.pem').count()).toBe(0);
    expect(await stored()).toEqual(['ca.pem']);
    // the key as a certificate, and a wrong extension (checked before sending)
    await page.locator('#cert-pew_mqtt-client').setInputFiles(join(work, 'ca.key'));
    await expectText(
      page.locator('[data-cert-kind=client] .error'),
      `${en.certs.uploadFailed} ${fill(en.errors.file_extension, { allowed: '.crt, .csr, .pem' })}`,
    );
    expect(await stored()).toEqual(['ca.pem']);

    // delete: the question first; keep leaves it, remove removes it
    await row(page, 'ca.pem').locator('[data-action=delete-cert]').click();
    await expectText(dialog(page).locator('#dlg-text'), fill(en.certs.deleteText, { name: 'ca.pem' }));
    await dialog(page).locator('button', { hasText: en.certs.keep }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await stored()).toEqual(['ca.pem']);
    await row(page, 'ca.pem').locator('[data-action=delete-cert]').click();
    await dialog(page).locator('button.danger', { hasText: en.certs.delete }).click();
    await expectNotice(page, 'info', fill(en.certs.removed, { name: 'ca.pem' }));
    await expect.poll(() => row(page, 'ca.pem').count()).toBe(0);
    expect(await stored()).toEqual([]);
    // the field that named it is emptied (saved with the page)
    await expect.poll(() => fieldInput(page, 'pew_mqtt', 'ca').inputValue()).toBe('');
  });

  it('the user role sees the stored certificates, without upload or delete', async () => {
    await (await suite.d.admin()).request('POST', '/config/upload?kind=cert&section=pew_mqtt&name=ca.crt', caPem.toString(), {
      'content-type': 'application/octet-stream',
    });
    const { page } = await suite.open();
    await loginApi(page, suite.d, USER);
    await openConsole(page, suite.d, '/mqtt');
    await expectText(row(page, 'ca.crt').locator('[data-subject]'), 'CN=Broker CA, O=Example Works');
    expect(await page.locator('[data-certs=pew_mqtt] input[type=file]').count()).toBe(0);
    expect(await page.locator('[data-certs=pew_mqtt] [data-action=delete-cert]').count()).toBe(0);
  });
});
