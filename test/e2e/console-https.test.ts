// security.md TLS-2 in the browser (issue 16 item 8): chromium, trusting exactly the public key of
// the certificate the daemon generated (--ignore-certificate-errors-spki-list, no blanket ignore),
// opens the console by its plain HTTP address, is redirected to HTTPS, signs in there and holds a
// Secure, HttpOnly session cookie; /info shows the fingerprint of the certificate it was served, and
// an uploaded certificate and key replace it.
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.ts';
import type { TestDaemon } from '../support/daemon.ts';
import { makeCertificates } from '../support/openssl.ts';
import { LOOPBACK } from '../support/ports.ts';
import { ADMIN, en, expectNotice, expectText, expectTitle, fill, loginUi, newPage, startConsoleDaemon } from './support.ts';

let d: TestDaemon;
let browser: Browser;
let cert: X509Certificate;
let uploaded: Awaited<ReturnType<typeof makeCertificates>>;
const spkiOf = (x: X509Certificate) =>
  createHash('sha256')
    .update(x.publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64');

beforeAll(async () => {
  d = await startConsoleDaemon({ tls: true });
  await d.ctx.users.add(ADMIN.username, 'admin', ADMIN.password, new Date());
  cert = new X509Certificate(await readFile(join(d.dataDir, 'console-tls', 'cert.pem')));
  uploaded = await makeCertificates();
  // exactly two keys are trusted: the generated certificate's and the one the test uploads
  const spki = [spkiOf(cert), spkiOf(new X509Certificate(uploaded.cert))].join(',');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spki}`] });
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('the console over HTTPS in chromium', () => {
  it("redirects from HTTP, signs in over TLS with a Secure cookie and shows the certificate's fingerprint", async () => {
    const cp = await newPage(browser);
    const { page, context } = cp;
    await page.goto(`http://${LOOPBACK}:${d.port}/#/info`);
    expect(page.url()).toBe(`https://${LOOPBACK}:${d.tlsPort}/#/info`);
    await page.locator('#login-user').waitFor();
    await loginUi(page, ADMIN);
    await expectTitle(page, en.nav.info);
    const cookies = await context.cookies(`https://${LOOPBACK}:${d.tlsPort}`);
    const sid = cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    await expectText(page.locator('[data-fingerprint]'), cert.fingerprint256);
    expect(await page.locator('[data-console-cert]').getAttribute('data-console-cert')).toBe('generated');
    // the console's own listeners with the connections each ended for a contained fault (none here)
    await expectText(page.locator('[data-console-listeners] dt').first(), fill(en.certs.listenerHttps, { port: d.tlsPort! }));
    await expectText(page.locator('[data-console-listeners] dt').nth(1), fill(en.certs.listenerRedirect, { port: d.port }));
    expect(await page.locator('[data-console-listeners] dd').evaluateAll((dds) => dds.map((e) => e.getAttribute('data-faults')))).toEqual(['0', '0']);

    // an administrator replaces it on /info: the card shows the uploaded one once the daemon took it up
    await page.locator('#cert-console-server').setInputFiles({ name: 'server.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(uploaded.cert) });
    await expectNotice(page, 'info', fill(en.certs.uploaded, { name: 'server.pem' }));
    await page.locator('#cert-console-key').setInputFiles({ name: 'key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(uploaded.key) });
    await expectNotice(page, 'info', fill(en.certs.uploaded, { name: 'key.pem' }));
    await expectText(page.locator('[data-fingerprint]'), new X509Certificate(uploaded.cert).fingerprint256);
    expect(await page.locator('[data-console-cert]').getAttribute('data-console-cert')).toBe('uploaded');
    await context.close();
    expect(cp.errors).toEqual([]);
  });
});
