import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { createAuditLog, FAILED_SOURCES_PER_MINUTE, OTHER_SOURCES } from './audit.ts';

describe('audit log (AUD-1)', () => {
  it('appends JSON lines and rotates at its size bound, keeping a fixed number of files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-'));
    const audit = createAuditLog({ dir, clock: systemClock, maxBytes: 1000, keep: 2 });
    for (let i = 0; i < 60; i++) await audit.write({ action: 'config_save', user: 'admin', detail: { n: i } });
    expect((await readdir(dir)).sort()).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
    for (const f of ['audit.log', 'audit.log.1', 'audit.log.2']) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(text.length).toBeLessThan(1000 + 200);
      for (const line of text.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ action: 'config_save', user: 'admin' });
    }
    const last = (await audit.read())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).detail.n);
    expect(last.at(-1)).toBe(59);
  });
});

describe('failed logins (AUD-1, issue 16 item 9)', () => {
  it('are summed per address and minute; addresses beyond the first 20 of a minute share one sum', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-'));
    const clock = {
      t: Date.UTC(2026, 10, 21, 8, 0, 5),
      now() {
        return this.t;
      },
    };
    const audit = createAuditLog({ dir, clock });
    for (let i = 0; i < FAILED_SOURCES_PER_MINUTE + 30; i++) await audit.loginFailed(`10.0.${i}.1`, i % 2 ? 'admin' : undefined);
    for (let i = 0; i < 3; i++) await audit.loginFailed('10.0.0.1', 'admin');
    await audit.write({ action: 'login_ok', user: 'admin', source: '10.9.9.9' });
    clock.t += 60_000;
    await audit.loginFailed('10.0.0.1');
    const lines = (await audit.readAll())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(FAILED_SOURCES_PER_MINUTE + 1 + 1 + 1);
    expect(lines[0]).toMatchObject({
      action: 'login_failed',
      source: '10.0.0.1',
      time: '2026-11-21T08:00:05.000Z',
      detail: { count: 4, accounts: ['admin'], unknown: 1 },
    });
    const others = lines.find((l) => l.source === OTHER_SOURCES);
    expect(others.detail).toMatchObject({ count: 30, addresses: 30, accounts: ['admin'], unknown: 15 });
    expect(lines.at(-2)).toMatchObject({ action: 'login_ok' }); // the sums of the minute came first
    expect(lines.at(-1)).toMatchObject({ action: 'login_failed', source: '10.0.0.1', detail: { count: 1, accounts: [], unknown: 1 } });
  });
});
