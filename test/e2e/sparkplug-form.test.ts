// The Sparkplug B edge node's settings in the console (docs/sparkplug.md): its part on /mqtt, an id
// with a topic character refused at its field in the console's language and by the daemon with the
// same code, its status on /mqtt, and the Sparkplug fields of a logger variable shown on /log while
// the edge node is on.

import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { api, consoleSuite, de, en, expectText, fieldInput, fr, loginApi, openConsole, pageDrawn } from './support.ts';

describe("the Sparkplug B edge node's settings", () => {
  const suite = consoleSuite();

  it('on /mqtt: switched on with its ids and saved; an id with "/" is refused at its field in en, de and fr, and by the daemon', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/mqtt');
    await pageDrawn(page);
    const input = (path: string) => fieldInput(page, 'pew_mqtt', path);
    await expect.poll(() => input('sparkplug_enable').isChecked()).toBe(false);
    await input('broker_addr').fill('mqtt://127.0.0.1:1');
    await input('sparkplug_enable').check();
    await input('sparkplug_edge_node_id').fill('Unit7');
    await input('sparkplug_group_id').fill('Plant/1');
    const error = page.locator('[data-page] [data-field="sparkplug_group_id"] .error');
    await expectText(error, en.errors.invalid_characters);
    for (const [lang, l] of [
      ['de', de],
      ['fr', fr],
    ] as const) {
      await page.locator('select[data-action=language]').selectOption(lang);
      await expectText(error, l.errors.invalid_characters);
    }
    await page.locator('select[data-action=language]').selectOption('en');
    // the daemon refuses the same id with the same code
    const client = await api(page, suite.d);
    const stored = (await client.get('/config/pew_mqtt')).body as Record<string, unknown>;
    const refused = await client.post('/config/pew_mqtt', {
      ...stored,
      broker_addr: 'mqtt://127.0.0.1:1',
      sparkplug_enable: true,
      sparkplug_group_id: 'Plant/1',
      sparkplug_edge_node_id: 'Unit7',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('"path":"sparkplug_group_id"');
    expect(JSON.stringify(refused.body)).toContain('"code":"invalid_characters"');

    await input('sparkplug_group_id').fill('Plant1');
    await expect.poll(() => error.count()).toBe(0);
    await page.locator('.page-bar [data-action=save]').click();
    await expect
      .poll(async () => {
        const m = (await client.get('/config/pew_mqtt')).body as Record<string, unknown>;
        return [m.sparkplug_enable, m.sparkplug_group_id, m.sparkplug_edge_node_id];
      })
      .toEqual([true, 'Plant1', 'Unit7']);
    // its status beside the MQTT client's: no broker listens on port 1, so it keeps connecting
    const state = page.locator('[data-block=mqtt-status] [data-sparkplug-state]');
    await expect.poll(() => state.getAttribute('data-sparkplug-state')).toBe('connecting');
    await expectText(state, en.serviceStatus.sparkplug.states.connecting);
  });

  it("on /log: a variable's Sparkplug fields (writable, deadband) while the edge node is on, none while it is off", async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const client = await api(page, suite.d);
    const records = [withDefaults(recordSchema, { id: 1, name: 'Level', reg_addr: '10', type: 4 })];
    const log = { ...(withDefaults(logSchema, {}) as object), log_def: [withDefaults(logFileSchema, { id: 1, name: 'line', records })] };
    expect((await client.post('/config/pew_log', log)).status).toBe(200);
    const mqtt = (await client.get('/config/pew_mqtt')).body as Record<string, unknown>;
    for (const on of [true, false]) {
      const saved = await client.post('/config/pew_mqtt', {
        ...mqtt,
        broker_addr: 'mqtt://127.0.0.1:1',
        sparkplug_enable: on,
        sparkplug_group_id: 'Plant1',
        sparkplug_edge_node_id: 'Unit7',
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await openConsole(page, suite.d, '/log');
      await page.reload(); // the console loads the settings as saved now
      await pageDrawn(page);
      await page.locator('main [data-page=log] tr[data-point="0"] [data-action=edit-point]').click();
      await page.locator('[data-point-editor="0"]').waitFor();
      const fields = page.locator('[data-point-editor="0"] [data-field$="sparkplug_writable"], [data-point-editor="0"] [data-field$="sparkplug_deadband"]');
      await expect.poll(() => fields.count()).toBe(on ? 2 : 0);
    }
  });
});
