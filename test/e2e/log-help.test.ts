// The help texts of /log show once per field (the field's own hint line), for the general, log
// file and data point fields alike; the settings format version, internal to the unit, is not shown.
import { describe, expect, it } from 'vitest';
import { consoleSuite, en, expectText, loginApi, openConsole, pageBody } from './support.ts';

const t = en.logger;

describe('help texts on /log', () => {
  const suite = consoleSuite();

  it('every field shows its help once; the format version is not a field', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    const body = pageBody(page, 'log');
    await body.locator('[data-action=add-logfile]').click();
    await body.locator('[data-action=add-points]').click();
    await body.locator('[data-point-editor]').waitFor();

    // the helps the report named, each once in its field
    const once: [string, string][] = [
      ['formatfile', t.generalFields.formatfile.help],
      ['midnight_to_daybefore', t.generalFields.midnight_to_daybefore.help],
      ['delete_old_files', t.generalFields.delete_old_files.help],
    ];
    for (const [path, help] of once) {
      await expectText(body.locator(`[data-field="${path}"] .hint`), help);
    }
    // no field anywhere on the page has two hint lines, or one help text twice
    const fields = await body.locator('.field').evaluateAll((els) =>
      els.map((el) => {
        // a hint beside the field (in a wrapper around it) counts as the field's too
        const around = el.parentElement!.classList.contains('field-wrap') ? el.parentElement! : el;
        return { path: el.getAttribute('data-field'), hints: [...around.querySelectorAll('.hint')].map((h) => h.textContent) };
      }),
    );
    expect(fields.length).toBeGreaterThan(30);
    for (const f of fields) expect(f.hints.length, `${f.path}: ${JSON.stringify(f.hints)}`).toBeLessThanOrEqual(1);
    const text = await body.innerText();
    for (const help of [t.fileFields.name.help, t.pointFields.name.help, t.generalFields.formatfile.help].filter(Boolean)) {
      expect(text.split(help!).length - 1, help).toBe(1);
    }

    expect(await page.locator('#f-pew_log-version').count()).toBe(0);
    expect(text).not.toContain(t.generalFields.version.label);
  });
});
