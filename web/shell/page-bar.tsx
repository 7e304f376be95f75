// Title of the current page with its own save and reset (spec §2 per-page reset); read-only users
// see neither, nor does a page with controls of its own (the wizard). A section that failed to load says so here.

import { LL } from '../i18n/translate.ts';
import type { PageDef } from '../pages.ts';
import { section } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { resetPage, savePage } from './actions.ts';
import { useDocumentTitle } from './document-title.ts';
import { keepFocus } from './focus.ts';

export function PageBar({ page }: { page: PageDef | undefined }) {
  const t = LL.value;
  const title = page ? t.nav[page.id]() : t.nav.notfound();
  useDocumentTitle(title);
  const states = (page?.sections ?? []).map(section);
  const changed = states.some((s) => s.changed.value);
  return (
    <div class="page-bar">
      <h1 id="page-title">{title}</h1>
      {states.some((s) => s.fetchFailed.value) && (
        <p class="badge error" role="alert">
          {t.shell.fetchFailed()}
        </p>
      )}
      {readOnly.value && states.length > 0 && <p class="badge">{t.shell.readOnly()}</p>}
      {!readOnly.value && states.length > 0 && !page?.ownControls && (
        <div class="row">
          <button type="button" class="btn" onClick={() => void resetPage(page!.sections)} data-action="reset">
            {t.shell.reset()}
          </button>
          <button type="button" class="btn primary" onClick={() => void savePage(page!.sections).then(keepFocus)} disabled={!changed} data-action="save">
            {t.shell.save()}
          </button>
        </div>
      )}
    </div>
  );
}
