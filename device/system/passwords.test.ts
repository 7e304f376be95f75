import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, HASH_COST, hashPassword, verifyPassword } from './passwords.ts';
import { Users } from './users.ts';

const costOf = (stored: string) => stored.split('$').slice(0, 4).join('$');

describe('password hashes (security.md AUTH-5)', () => {
  it("are scrypt at the unit's cost, N=2^15 r=8 p=1, with a fresh salt each time; the right password checks, a wrong one does not", async () => {
    expect(HASH_COST).toEqual({ N: 32768, r: 8, p: 1 });
    const a = await hashPassword('Adm1n-Passw0rd!');
    const b = await hashPassword('Adm1n-Passw0rd!');
    expect(costOf(a)).toBe('scrypt$32768$8$1');
    expect(a).not.toBe(b);
    expect(await verifyPassword('Adm1n-Passw0rd!', a)).toBe(true);
    expect(await verifyPassword('Adm1n-Passw0rd?', a)).toBe(false);
  });

  it('a hash is checked at the cost it names, so a cheaper one made for a test checks as well', async () => {
    const cheap = await hashPassword('Adm1n-Passw0rd!', { N: 1024, r: 8, p: 1 });
    expect(costOf(cheap)).toBe('scrypt$1024$8$1');
    expect(await verifyPassword('Adm1n-Passw0rd!', cheap)).toBe(true);
    expect(await verifyPassword('wrong', cheap)).toBe(false);
    await expect(burnPasswordCheck('anything', undefined, { N: 1024, r: 8, p: 1 })).resolves.toBeUndefined();
  });

  it("the user store makes its hashes at the unit's cost unless it is given another", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'users-'));
    try {
      const unit = new Users(join(dir, 'unit.json'));
      await unit.add('admin', 'admin', 'Adm1n-Passw0rd!', new Date());
      const cheap = new Users(join(dir, 'cheap.json'), { N: 1024, r: 8, p: 1 });
      await cheap.add('admin', 'admin', 'Adm1n-Passw0rd!', new Date());
      await cheap.setPassword('admin', 'N3w-Passw0rd!');
      const stored = async (f: string) => (JSON.parse(await readFile(join(dir, f), 'utf8')) as { users: { hash: string }[] }).users[0]!.hash;
      expect(costOf(await stored('unit.json'))).toBe('scrypt$32768$8$1');
      expect(costOf(await stored('cheap.json'))).toBe('scrypt$1024$8$1');
      expect((await cheap.authenticate('admin', 'N3w-Passw0rd!'))?.name).toBe('admin');
      expect(await cheap.authenticate('nobody', 'N3w-Passw0rd!')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
