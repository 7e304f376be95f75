// The users of the unit on /users (spec §5, §6; security.md AUTH-3, AUD-1): the list, adding a
// user with the password rules checked live, setting a user's password, removing a user (with a
// confirmation; never oneself, never the last administrator: the daemon refuses both).
import { useEffect, useState } from 'preact/hooks';
import * as v from 'valibot';
import { toIssues } from '../../device/model/section.ts';
import { addUserSchema, ROLES, type Role } from '../../device/model/users.ts';
import { addUser, listUsers, removeUser, setUserPassword, type UserRow } from '../api/users.ts';
import { failureText } from '../forms/certificates.tsx';
import { NewPassword, newPasswordReady } from '../forms/new-password.tsx';
import { TableView } from '../forms/table-view.tsx';
import { errorText, formatDateTime, LL, labelled } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { session } from '../state/session.ts';

function AddUser({ onAdded }: { onAdded: (users: UserRow[]) => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [pw, setPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.users;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const checked = v.safeParse(addUserSchema, { username: name, role, password: pw });
    if (!checked.success) {
      const first = toIssues(checked.issues)[0]!;
      return setError((L) =>
        labelled(first.path === 'username' ? L.users.name() : first.path === 'role' ? L.users.role() : L.users.password(), errorText(first.code, first.params)),
      );
    }
    if (pw !== confirm) return setError((L) => L.users.mismatch());
    setBusy(true);
    try {
      onAdded(await addUser(name, role, pw));
      notify('info', t.added({ name }));
      setName('');
      setPw('');
      setConfirm('');
      setRole('user');
    } catch (err) {
      setError(() => failureText('', err).trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate data-form="add-user" aria-labelledby="add-user-title">
      <h3 id="add-user-title" class="row">
        {t.add()}
      </h3>
      <div class="field">
        <label for="add-name">{t.name()}</label>
        <div class="control">
          <input id="add-name" autocomplete="off" maxLength={32} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
      </div>
      <div class="field">
        <label for="add-role">{t.role()}</label>
        <div class="control">
          <select id="add-role" value={role} onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {LL.value.roles[r]()}
              </option>
            ))}
          </select>
        </div>
      </div>
      <NewPassword id="add" label={t.password()} value={pw} confirm={confirm} onValue={setPw} onConfirm={setConfirm} />
      {error && (
        <p class="error row" role="alert">
          {error}
        </p>
      )}
      <div class="row">
        <button class="btn primary" type="submit" disabled={busy || !name || !newPasswordReady(pw, confirm)} data-action="add-user">
          {t.addButton()}
        </button>
      </div>
    </form>
  );
}

function SetPassword({ name, onDone }: { name: string; onDone: () => void }) {
  const [pw, setPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.users;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!newPasswordReady(pw, confirm)) return setError((L) => (pw !== confirm ? L.users.mismatch() : errorText('password_policy', { min: 8, max: 40 })));
    setBusy(true);
    try {
      await setUserPassword(name, pw);
      notify('info', t.passwordSet({ name }));
      onDone();
    } catch (err) {
      setError(() => failureText('', err).trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate data-form="set-password" aria-label={t.setPasswordFor({ name })}>
      <h3 class="row">{t.setPasswordFor({ name })}</h3>
      <NewPassword id="set" label={t.password()} value={pw} confirm={confirm} onValue={setPw} onConfirm={setConfirm} />
      {error && (
        <p class="error row" role="alert">
          {error}
        </p>
      )}
      <div class="row">
        <button class="btn primary" type="submit" disabled={busy || !newPasswordReady(pw, confirm)} data-action="set-password">
          {t.setPassword()}
        </button>
        <button class="btn" type="button" onClick={onDone}>
          {t.cancel()}
        </button>
      </div>
    </form>
  );
}

export function UsersTable({ onChange }: { onChange: () => void }) {
  const [users, setUsers] = useState<UserRow[] | null>(null);
  const [error, setError] = useWorded();
  const [editing, setEditing] = useState<string | null>(null);
  const t = LL.value.users;
  const me = session.value?.currentUser.toLowerCase();
  const load = () =>
    listUsers().then(
      (u) => {
        setUsers(u);
        setError(null);
      },
      (e: unknown) => setError((L) => L.users.failed({ reason: failureText('', e).trim() })),
    );
  useEffect(() => {
    void load();
  }, []);
  const changed = (u: UserRow[]) => {
    setUsers(u);
    onChange();
  };
  const remove = async (name: string) => {
    if (!(await ask({ title: t.removeTitle(), text: t.removeText({ name }), yes: t.remove(), no: t.cancel() }))) return;
    try {
      changed(await removeUser(name));
      notify('info', t.removed({ name }));
    } catch (err) {
      notify('error', failureText('', err).trim());
    }
  };
  return (
    <section class="card" aria-labelledby="users-title" data-block="users">
      <h2 id="users-title">{t.list()}</h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {users && (
        <TableView labelledBy="users-title">
          <table data-table="users">
            <thead>
              <tr>
                <th>{t.name()}</th>
                <th>{t.role()}</th>
                <th>{t.created()}</th>
                <th>{t.actions()}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.name} data-user={u.name}>
                  <td>
                    {u.name}
                    {u.name.toLowerCase() === me && ` (${t.you()})`}
                  </td>
                  <td>{LL.value.roles[u.role]()}</td>
                  <td>{formatDateTime(u.created)}</td>
                  <td class="row">
                    {/* the own password is changed with the current one, in the block below */}
                    {u.name.toLowerCase() !== me && (
                      <>
                        <button type="button" class="btn small" onClick={() => setEditing(u.name)} data-action="edit-password">
                          {t.setPassword()}
                        </button>
                        <button type="button" class="btn small danger" onClick={() => void remove(u.name)} data-action="remove-user">
                          {t.remove()}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableView>
      )}
      {editing && (
        <SetPassword
          key={editing}
          name={editing}
          onDone={() => {
            setEditing(null);
            onChange();
          }}
        />
      )}
      <AddUser onAdded={changed} />
    </section>
  );
}
