import type { PageDef } from '../pages.ts';
import { useEffect } from 'preact/hooks';
import { helpReady, LL, loadHelp } from '../i18n/translate.ts';

/** Online help for the current page (spec §2), in the console's language. */
export function Help({ page, onClose }: { page: PageDef | undefined; onClose: () => void }) {
  useEffect(() => void loadHelp().catch((e: unknown) => console.error('help texts failed to load', e)), []);
  const t = LL.value;
  if (!helpReady.value) return <aside class="help card" aria-busy="true">{t.shell.loading()}</aside>;
  const text = page ? t.help.pages[page.id]() : t.help.pages.notfound();
  return (
    <aside class="help card" aria-labelledby="help-title">
      <div class="row between">
        <h2 id="help-title">{t.shell.help()}</h2>
        <button type="button" class="btn small" onClick={onClose}>{t.shell.close()}</button>
      </div>
      {text?.split('\n').map((para, i) => <p key={i}>{para}</p>)}
    </aside>
  );
}
