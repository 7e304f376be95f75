// The unit's local time in a unit test: the file runs in the zone it names, and the zone is put back
// after it (the unit tests share their workers, vitest.config.ts `isolate: false`, so a zone left
// behind would move the local times of the next file).
import { afterAll } from 'vitest';

export function pinTimeZone(zone: string): void {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
