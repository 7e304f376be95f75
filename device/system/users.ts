// The user table: names, roles and scrypt hashes in `<data>/users.json` (security.md AUTH-2, AUTH-5).
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import type { Role } from '../model/users.ts';
import type { HashTicket } from './hash-queue.ts';
import { burnPasswordCheck, HASH_COST, type HashCost, hashPassword, verifyPassword } from './passwords.ts';

export type { Role } from '../model/users.ts';

export interface User {
  name: string;
  role: Role;
  hash: string;
  created: string;
}

/** add(): a user of that name (in any letter case) exists already. */
export class UserExists extends Error {}

export class Users {
  private users: User[];
  private queue: Promise<unknown> = Promise.resolve();

  /** `cost`: of the hashes this store makes (the unit's, unless a test of the console asks for a cheaper one) */
  constructor(
    private readonly file: string,
    private readonly cost: HashCost = HASH_COST,
  ) {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as { users?: User[] };
      this.users = Array.isArray(data.users) ? data.users.filter((u) => typeof u?.name === 'string' && typeof u.hash === 'string') : [];
    } catch {
      this.users = [];
    }
  }

  /** spec §5 / AUTH-2: a fresh unit has no user and allows nothing but creating the admin. */
  isEmpty(): boolean {
    return this.users.length === 0;
  }

  find(name: string): User | undefined {
    return this.users.find((u) => u.name.toLowerCase() === name.toLowerCase());
  }

  list(): Omit<User, 'hash'>[] {
    return this.users.map(({ hash: _hash, ...u }) => u);
  }

  /** Changes run one after the other, so two requests cannot both pass a check and both write. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  add(name: string, role: Role, password: string, now: Date): Promise<void> {
    return this.serial(async () => {
      if (this.find(name)) throw new UserExists(name);
      const user: User = { name, role, hash: await hashPassword(password, this.cost), created: now.toISOString() };
      await this.persist([...this.users, user]);
    });
  }

  /**
   * Removes a user; never the last administrator (checked inside the queue, so two removals at
   * once cannot both pass the check).
   */
  remove(name: string): Promise<'removed' | 'not_found' | 'last_admin'> {
    return this.serial(async () => {
      const user = this.find(name);
      if (!user) return 'not_found';
      if (user.role === 'admin' && this.users.filter((u) => u.role === 'admin').length === 1) return 'last_admin';
      await this.persist(this.users.filter((u) => u !== user));
      return 'removed';
    });
  }

  /** Factory reset: every user removed, the unit is back to first-run setup (AUTH-2). */
  removeAll(): Promise<void> {
    return this.serial(() => this.persist([]));
  }

  /** Stores a new password hash; false when the user does not exist. */
  setPassword(name: string, password: string): Promise<boolean> {
    return this.serial(async () => {
      const user = this.find(name);
      if (!user) return false;
      const hash = await hashPassword(password, this.cost);
      await this.persist(this.users.map((u) => (u === user ? { ...u, hash } : u)));
      return true;
    });
  }

  /** Creates the first administrator; false when any user exists already. */
  createFirstAdmin(name: string, password: string, now: Date): Promise<boolean> {
    return this.serial(async () => {
      if (!this.isEmpty()) return false;
      const user: User = { name, role: 'admin', hash: await hashPassword(password, this.cost), created: now.toISOString() };
      await this.persist([user]);
      return true;
    });
  }

  /**
   * The user when name and password match; takes the same time when the user does not exist.
   * With a ticket (a login check), throws HashQueueFull when the hashing queue refuses it (hash-queue.ts).
   */
  async authenticate(name: string, password: string, ticket?: HashTicket): Promise<User | undefined> {
    const user = this.find(name);
    if (!user) {
      await burnPasswordCheck(password, ticket, this.cost);
      return undefined;
    }
    return (await verifyPassword(password, user.hash, ticket)) ? user : undefined;
  }

  private async persist(next: User[]): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, users: next }, null, 2)}\n`);
    this.users = next;
  }
}
