// /users (spec §5 password rules, §6 roles; security.md AUTH-3, SESS-1, AUD-1): for an
// administrator the users, the own password, the active sessions, the Prometheus scrape token
// (docs/monitoring.md) and the audit log; the user role
// sees that the page is for administrators and gets only the own password block.
import { useState } from 'preact/hooks';
import { LL } from '../i18n/translate.ts';
import { readOnly } from '../state/session.ts';
import css from '../styles/users.css' with { type: 'text' };
import { AuditTable } from './users-audit.tsx';
import { MetricsToken } from './users-metrics.tsx';
import { OwnPassword } from './users-own.tsx';
import { SessionsTable } from './users-sessions.tsx';
import { UsersTable } from './users-table.tsx';

export default function UsersPage() {
  // every change on the page may end sessions and writes audit entries: both lists reload
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((n) => n + 1);
  const t = LL.value.users;
  return (
    <div class="users" data-page="users">
      <style>{css as string}</style>
      {readOnly.value ? (
        <p class="badge" role="note" data-note="admin-only">
          {t.adminOnly()}
        </p>
      ) : (
        <UsersTable onChange={bump} />
      )}
      <OwnPassword />
      {!readOnly.value && <SessionsTable version={version} onChange={bump} />}
      {!readOnly.value && <MetricsToken onChange={bump} />}
      {!readOnly.value && <AuditTable version={version} />}
    </div>
  );
}
