// Refused file names say what is wrong (spec §5 certificate names and extensions, script extension
// .cfg; §9 file name 30): the extension with the allowed ones, the name before it, or the length,
// in the certificate slots of /mqtt, its certificate fields and the script upload of /script;
// the daemon answers the same codes.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, de, en, expectText, fieldInput, fill, loginApi, openConsole } from './support.ts';

const pem = Buffer.from('-----BEGIN CERTIFICATE-----\nbm8=\n-----END CERTIFICATE-----\n');
const certError = (page: Page, kind: string) => page.locator(`[data-cert-kind=${kind}] .error`);

describe('file name messages', () => {
  const suite = consoleSuite();

  it('certificate slots and fields: the wrong extension with the allowed ones, the wrong name', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    const failed = en.certs.uploadFailed;
    await page.locator('#cert-pew_mqtt-ca').setInputFiles({ name: 'ca.txt', mimeType: 'text/plain', buffer: pem });
    await expectText(certError(page, 'ca'), `${failed} ${fill(en.errors.file_extension, { allowed: '.crt, .csr, .pem' })}`);
    await page.locator('#cert-pew_mqtt-key').setInputFiles({ name: 'mine.crt', mimeType: 'application/x-x509-ca-cert', buffer: pem });
    await expectText(certError(page, 'key'), `${failed} ${fill(en.errors.file_extension, { allowed: '.key, .pem' })}`);
    await page.locator('#cert-pew_mqtt-client').setInputFiles({ name: 'client.der', mimeType: 'application/x-x509-ca-cert', buffer: pem });
    await expectText(certError(page, 'client'), `${failed} ${fill(en.errors.file_extension, { allowed: '.crt, .csr, .pem' })}`);

    // a field naming a file of another kind, or with a wrong extension
    await fieldInput(page, 'pew_mqtt', 'ca').fill('foo.pem');
    await expectText(page.locator('[data-field=ca] .error'), fill(en.errors.file_base_name, { allowed: 'ca' }));
    await fieldInput(page, 'pew_mqtt', 'key').fill('key.crt');
    await expectText(page.locator('[data-field=key] .error'), fill(en.errors.file_extension, { allowed: '.key, .pem' }));

    // the daemon says the same
    const a = await api(page, suite.d);
    const r = await a.post('/config/delete_cert', { section: 'pew_mqtt', name: 'foo.pem' });
    expect(r.status).toBe(400);
    expect(r.body.error.issues).toEqual([{ path: 'name', code: 'file_base_name', params: { allowed: ['ca', 'client', 'key'] } }]);
  });

  it('script upload: the extension, the length; in German too, and re-worded on a language switch', async () => {
    const { page } = await suite.open({ locale: 'de-DE' });
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/script');
    await page.locator('select[data-action=language]').selectOption('en');
    const error = page.locator('[data-field=upload-script] .error');
    await page.locator('#script-upload').setInputFiles({ name: 'script.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expectText(error, `${en.script.uploadFailed} ${fill(en.errors.file_extension, { allowed: '.cfg' })}`);
    const long = `${'n'.repeat(27)}.cfg`; // 31 characters
    await page.locator('#script-upload').setInputFiles({ name: long, mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expectText(error, `${en.script.uploadFailed} ${fill(en.errors.too_long, { max: 30 })}`);
    await page.locator('select[data-action=language]').selectOption('de');
    await page.locator('#script-upload').setInputFiles({ name: 'script.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await expectText(error, `${de.script.uploadFailed} ${fill(de.errors.file_extension, { allowed: '.cfg' })}`);
    // a message already shown follows a language switch
    await page.locator('select[data-action=language]').selectOption('en');
    await expectText(error, `${en.script.uploadFailed} ${fill(en.errors.file_extension, { allowed: '.cfg' })}`);
  });
});
