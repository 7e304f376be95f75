import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTimeZone, zoneOfLink } from './time-zone.ts';

describe('readTimeZone', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tz-'));
    await mkdir(join(root, 'etc'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('names the zone of the /etc/localtime link', async () => {
    await symlink('/usr/share/zoneinfo/Europe/Berlin', join(root, 'etc/localtime'));
    expect(await readTimeZone(root, {})).toBe('Europe/Berlin');
    await rm(join(root, 'etc/localtime'));
  });

  it('reads /etc/timezone when there is no link', async () => {
    await writeFile(join(root, 'etc/timezone'), 'America/Argentina/Buenos_Aires\n');
    expect(await readTimeZone(root, {})).toBe('America/Argentina/Buenos_Aires');
    await rm(join(root, 'etc/timezone'));
  });

  it('takes TZ first: a name, a path, empty for UTC', async () => {
    expect(await readTimeZone(root, { TZ: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(await readTimeZone(root, { TZ: ':/usr/share/zoneinfo/posix/Europe/Paris' })).toBe('Europe/Paris');
    expect(await readTimeZone(root, { TZ: '' })).toBe('UTC');
  });

  it('leaves a POSIX rule or no source at all to Intl', async () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await readTimeZone(root, {})).toBe(intl);
    expect(await readTimeZone(root, { TZ: 'CET-1CEST' })).toBe(intl);
  });

  it('agrees with Intl on this machine', async () => {
    expect(await readTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('keeps only zoneinfo names from a link target', () => {
    expect(zoneOfLink('/usr/share/zoneinfo/right/UTC')).toBe('UTC');
    expect(zoneOfLink('/etc/zone')).toBeUndefined();
    expect(zoneOfLink('../usr/share/zoneinfo/Etc/GMT+3')).toBe('Etc/GMT+3');
  });
});
