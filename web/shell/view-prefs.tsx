// Theme and language choice: in the top bar on a wide screen, in the menu on a narrow one (the top
// bar of a phone keeps to one or two rows).

import type { Locales } from '../i18n/i18n-types.ts';
import { LL, LOCALES, locale, setLocale } from '../i18n/translate.ts';
import { THEMES, type Theme, theme } from '../state/prefs.ts';

const themeKey = (th: Theme) => (th === 'material-ocean' ? 'materialOcean' : th);

/** `inMenu`: labels shown above the selects (the top bar names them for screen readers only). */
export function ViewPrefs({ inMenu = false }: { inMenu?: boolean }) {
  const t = LL.value;
  const cls = inMenu ? 'filter' : 'compact';
  const text = inMenu ? '' : 'sr';
  return (
    <>
      <label class={cls}>
        <span class={text}>{t.shell.theme()}</span>
        <select
          value={theme.value}
          onChange={(e) => {
            theme.value = (e.currentTarget as HTMLSelectElement).value as Theme;
          }}
          data-action="theme"
        >
          {THEMES.map((th) => (
            <option key={th} value={th}>
              {t.themes[themeKey(th)]()}
            </option>
          ))}
        </select>
      </label>
      <label class={cls}>
        <span class={text}>{t.shell.language()}</span>
        <select value={locale.value} onChange={(e) => void setLocale((e.currentTarget as HTMLSelectElement).value as Locales)} data-action="language">
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {t.languages[l]()}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
