// The bar at the top: menu button (narrow screens), quick access, save-all, help, theme, language,
// the current user and role, logout (spec §2).
import { PAGES } from '../pages.ts';
import { THEMES, theme, type Theme } from '../state/prefs.ts';
import { anyUnsaved } from '../state/service-edits.ts';
import { logout, readOnly, session } from '../state/session.ts';
import { LL, LOCALES, locale, setLocale } from '../i18n/translate.ts';
import type { Locales } from '../i18n/i18n-types.ts';
import { saveAll } from './actions.ts';

const themeKey = (th: Theme) => (th === 'material-ocean' ? 'materialOcean' : th);

export function TopBar(props: { menuOpen: boolean; onMenu: () => void; onHelp: () => void }) {
  const t = LL.value;
  return (
    <header class="top">
      <button type="button" class="btn icon menu-toggle" aria-expanded={props.menuOpen} aria-controls="menu" onClick={props.onMenu}>
        ☰<span class="sr">{t.shell.menu()}</span>
      </button>
      <a class="brand" href="#/info">{t.app.title()}</a>
      <nav class="quick" aria-label={t.shell.quick()}>
        {PAGES.filter((p) => p.quick).map((p) => <a key={p.id} class="btn small" href={`#${p.path}`}>{t.nav[p.id]()}</a>)}
      </nav>
      <div class="tools">
        {!readOnly.value && (
          <button type="button" class="btn primary small" onClick={() => void saveAll()} disabled={!anyUnsaved.value} data-action="save-all">
            {t.shell.saveAll()}
          </button>
        )}
        <button type="button" class="btn small" onClick={props.onHelp} data-action="help">{t.shell.help()}</button>
        <label class="compact">
          <span class="sr">{t.shell.theme()}</span>
          <select value={theme.value} onChange={(e) => { theme.value = (e.currentTarget as HTMLSelectElement).value as Theme; }} data-action="theme">
            {THEMES.map((th) => <option key={th} value={th}>{t.themes[themeKey(th)]()}</option>)}
          </select>
        </label>
        <label class="compact">
          <span class="sr">{t.shell.language()}</span>
          <select value={locale.value} onChange={(e) => void setLocale((e.currentTarget as HTMLSelectElement).value as Locales)} data-action="language">
            {LOCALES.map((l) => <option key={l} value={l}>{t.languages[l]()}</option>)}
          </select>
        </label>
        {/* the name leads to /users, where every role changes its own password */}
        <a class="user" href="#/users" title={t.users.ownLink()} data-role={session.value?.role}>
          {session.value?.currentUser} · {session.value ? t.roles[session.value.role]() : ''}
        </a>
        <button type="button" class="btn small" onClick={() => void logout()} data-action="logout">{t.shell.logout()}</button>
      </div>
    </header>
  );
}
