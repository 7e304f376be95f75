// The menu (spec §2): pages by group, the view filter all / enabled / disabled applications, and a
// marker per page for unsaved changes, invalid settings and sections that failed to load.
import { useLocation } from 'preact-iso/router';
import { APP_ENABLED } from '../../device/model/apps.ts';
import { LL } from '../i18n/translate.ts';
import { PAGES, type PageDef, pageOf } from '../pages.ts';
import { FILTERS, type Filter, filter } from '../state/prefs.ts';
import { section } from '../state/sections.ts';
import { servicesChanged } from '../state/service-edits.ts';
import { readOnly } from '../state/session.ts';
import { narrow } from './narrow.ts';
import { ViewPrefs } from './view-prefs.tsx';

const appOn = (p: PageDef) => p.sections.some((k) => APP_ENABLED[k]?.(section(k).saved.value));

function visible(p: PageDef, f: Filter): boolean {
  if (p.adminOnly && readOnly.value) return false;
  if (f === 'all' || p.group !== 'apps' || p.sections.length === 0) return true;
  return f === 'enabled' ? appOn(p) : !appOn(p);
}

function Marker({ page }: { page: PageDef }) {
  const states = page.sections.map(section);
  const t = LL.value.shell;
  if (states.some((s) => s.fetchFailed.value))
    return (
      <span class="mark failed" role="img" title={t.fetchFailed()} aria-label={t.fetchFailed()}>
        !
      </span>
    );
  if (states.some((s) => s.shownValidation.value.invalid))
    return (
      <span class="mark invalid" role="img" title={t.invalid()} aria-label={t.invalid()}>
        !
      </span>
    );
  // the services block of /info has unsaved switches like a page's settings
  if (states.some((s) => s.changed.value) || (page.id === 'info' && servicesChanged.value))
    return (
      <span class="mark changed" role="img" title={t.changed()} aria-label={t.changed()}>
        •
      </span>
    );
  return null;
}

export function Menu({ onPick }: { onPick: () => void }) {
  const here = pageOf(useLocation().path);
  const t = LL.value;
  return (
    <nav class="menu" aria-label={t.menu.label()}>
      {narrow.value && <ViewPrefs inMenu />}
      <label class="filter">
        <span>{t.menu.filter()}</span>
        <select
          value={filter.value}
          onChange={(e) => {
            filter.value = (e.currentTarget as HTMLSelectElement).value as Filter;
          }}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {t.menu.filters[f]()}
            </option>
          ))}
        </select>
      </label>
      {(['system', 'plc', 'apps'] as const).map((g) => (
        <div key={g} class="group">
          <h2>{t.menu.groups[g]()}</h2>
          <ul>
            {PAGES.filter((p) => p.group === g && visible(p, filter.value)).map((p) => (
              <li key={p.id} class={p.parent ? 'sub' : ''}>
                <a href={`#${p.path}`} aria-current={here?.id === p.id ? 'page' : undefined} onClick={onPick} data-page={p.id}>
                  <span>{t.nav[p.id]()}</span>
                  {p.group === 'apps' && p.sections.length > 0 && !p.parent && (
                    <span class={`dot ${appOn(p) ? 'on' : 'off'}`} title={appOn(p) ? t.menu.filters.enabled() : t.menu.filters.disabled()} />
                  )}
                  <Marker page={p} />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
