// The bar at the top: menu button (narrow screens), quick access, save-all, help, theme, language,
// the current user and role, logout (spec §2). On a narrow screen theme and language are in the menu.

import { LL } from '../i18n/translate.ts';
import { PAGES } from '../pages.ts';
import { anyUnsaved } from '../state/service-edits.ts';
import { logout, readOnly, session } from '../state/session.ts';
import { confirmLogout, saveAll } from './actions.ts';
import { keepFocus } from './focus.ts';
import { narrow } from './narrow.ts';
import { ViewPrefs } from './view-prefs.tsx';

export function TopBar(props: { menuOpen: boolean; onMenu: () => void; helpOpen: boolean; onHelp: () => void }) {
  const t = LL.value;
  return (
    <header class="top">
      <button type="button" class="btn icon menu-toggle" aria-expanded={props.menuOpen} aria-controls="menu" onClick={props.onMenu}>
        ☰<span class="sr">{t.shell.menu()}</span>
      </button>
      <a class="brand" href="#/info">
        {t.app.title()}
      </a>
      <nav class="quick" aria-label={t.shell.quick()}>
        {PAGES.filter((p) => p.quick).map((p) => (
          <a key={p.id} class="btn small" href={`#${p.path}`}>
            {t.nav[p.id]()}
          </a>
        ))}
      </nav>
      <div class="tools">
        {!readOnly.value && (
          <button type="button" class="btn primary small" onClick={() => void saveAll().then(keepFocus)} disabled={!anyUnsaved.value} data-action="save-all">
            {t.shell.saveAll()}
          </button>
        )}
        <button type="button" class="btn small" onClick={props.onHelp} aria-expanded={props.helpOpen} data-action="help">
          {t.shell.help()}
        </button>
        {!narrow.value && <ViewPrefs />}
        {/* the name leads to /users, where every role changes its own password */}
        <a class="user" href="#/users" title={t.shell.ownLink()} data-role={session.value?.role}>
          {session.value?.currentUser} · {session.value ? t.roles[session.value.role]() : ''}
        </a>
        <button type="button" class="btn small" onClick={() => void confirmLogout().then((ok) => (ok ? logout() : undefined))} data-action="logout">
          {t.shell.logout()}
        </button>
      </div>
    </header>
  );
}
