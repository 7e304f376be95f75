// Active sessions on /users (security.md SESS-1): who is logged in, from where, since when; an
// administrator ends a session and that browser is logged out at its next request.
import { useEffect, useState } from 'preact/hooks';
import { endSession, listSessions, type SessionRow } from '../api/users.ts';
import { failureText } from '../forms/certificates.tsx';
import { TableView } from '../forms/table-view.tsx';
import { formatDateTime, LL } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';

/** `version` changes when something else on the page may have ended sessions (user removed, password set). */
export function SessionsTable({ version, onChange }: { version: number; onChange: () => void }) {
  const [rows, setRows] = useState<SessionRow[] | null>(null);
  const [error, setError] = useWorded();
  const t = LL.value.users;
  const load = () =>
    listSessions().then(
      (s) => {
        setRows(s);
        setError(null);
      },
      (e: unknown) => setError((L) => L.users.failed({ reason: failureText('', e).trim() })),
    );
  useEffect(() => {
    void load();
  }, [version]);
  const end = async (s: SessionRow) => {
    if (!(await ask({ title: t.endTitle(), text: t.endText({ name: s.user, source: s.source }), yes: t.end(), no: t.cancel() }))) return;
    try {
      await endSession(s.handle);
      notify('info', t.ended({ name: s.user }));
    } catch (err) {
      notify('error', failureText('', err).trim());
    }
    onChange();
  };
  return (
    <section class="card" aria-labelledby="sessions-title" data-block="sessions">
      <div class="row between">
        <h2 id="sessions-title">{t.sessions()}</h2>
        <button type="button" class="btn small" onClick={() => void load()} data-action="refresh-sessions">
          {t.refresh()}
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {rows && rows.length === 0 && <p>{t.noSessions()}</p>}
      {rows && rows.length > 0 && (
        <TableView labelledBy="sessions-title">
          <table data-table="sessions">
            <thead>
              <tr>
                <th>{t.user()}</th>
                <th>{t.role()}</th>
                <th>{t.source()}</th>
                <th>{t.created()}</th>
                <th>{t.lastSeen()}</th>
                <th>{t.actions()}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.handle} data-session-user={s.user}>
                  <td>
                    {s.user}
                    {s.current && ` (${t.thisSession()})`}
                  </td>
                  <td>{LL.value.roles[s.role]()}</td>
                  <td>{s.source}</td>
                  <td>{formatDateTime(s.created)}</td>
                  <td>{formatDateTime(s.lastSeen)}</td>
                  <td>
                    {!s.current && (
                      <button type="button" class="btn small danger" onClick={() => void end(s)} data-action="end-session">
                        {t.end()}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableView>
      )}
    </section>
  );
}
