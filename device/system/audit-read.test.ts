// Reading the whole audit log (security.md AUD-1: admin-only download): the rotated files oldest
// first, then the current one, nothing lost or repeated across a rotation.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { createAuditLog } from './audit.ts';

describe('audit readAll', () => {
  it('returns every kept entry in the order written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-all-'));
    try {
      const audit = createAuditLog({ dir, clock: systemClock, maxBytes: 600, keep: 3 });
      for (let i = 0; i < 25; i++) await audit.write({ action: 'config_save', detail: { n: i } });
      const all = (await audit.readAll())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).detail.n as number);
      // the oldest files beyond `keep` are gone; what is kept is a contiguous run ending at the last entry
      expect(all.at(-1)).toBe(24);
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => 25 - all.length + i));
      expect(all.length).toBeGreaterThan((await audit.read()).trim().split('\n').length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
