// Server-side sessions (security.md SESS-1): 128-bit random ids in an HttpOnly SameSite=Strict
// cookie, a CSRF token per session, idle expiry 15 min and absolute expiry 8 h.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../hw/types.ts';
import type { Role } from './users.ts';

export const IDLE_MS = 15 * 60_000;
export const ABSOLUTE_MS = 8 * 60 * 60_000;
export const COOKIE = 'sid';

export interface Session {
  id: string;
  user: string;
  role: Role;
  csrfToken: string;
  created: number;
  lastSeen: number;
  source: string;
}

export class Sessions {
  private readonly table = new Map<string, Session>();
  constructor(private readonly clock: Clock) {}

  create(user: string, role: Role, source: string): Session {
    const now = this.clock.now();
    const s: Session = { id: randomBytes(16).toString('hex'), user, role, csrfToken: randomBytes(16).toString('hex'), created: now, lastSeen: now, source };
    this.table.set(s.id, s);
    return s;
  }

  /** The live session for an id, touched; expired ones are removed. */
  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const s = this.table.get(id);
    if (!s) return undefined;
    const now = this.clock.now();
    if (now - s.lastSeen > IDLE_MS || now - s.created > ABSOLUTE_MS) {
      this.table.delete(id);
      return undefined;
    }
    s.lastSeen = now;
    return s;
  }

  end(id: string): void {
    this.table.delete(id);
  }

  /** Ends every session of a user (password change, user removal). */
  endUser(user: string): void {
    for (const [id, s] of this.table) if (s.user === user) this.table.delete(id);
  }

  list(): Session[] {
    return [...this.table.values()];
  }
}
