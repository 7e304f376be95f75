import { describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditLog } from './audit.ts';
import { systemClock } from '../../hw/types.ts';

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
    const last = (await audit.read()).trim().split('\n').map((l) => JSON.parse(l).detail.n);
    expect(last.at(-1)).toBe(59);
  });
});
