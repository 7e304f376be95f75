import { useEffect, useRef } from 'preact/hooks';
import { helpReady, LL, loadHelp } from '../i18n/translate.ts';
import type { PageDef } from '../pages.ts';
import { revealBelowHeader } from './focus.ts';

/**
 * Online help for the current page (spec §2), in the console's language. It takes the focus when
 * it opens (shown below the sticky top bar), and Esc or Close closes it and gives the focus back
 * to the Help button.
 */
export function Help({ page, onClose }: { page: PageDef | undefined; onClose: () => void }) {
  const box = useRef<HTMLElement>(null);
  useEffect(() => void loadHelp().catch((e: unknown) => console.error('help texts failed to load', e)), []);
  useEffect(() => {
    if (box.current) revealBelowHeader(box.current);
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // a question dialog above the page answers Esc itself
      if (e.key !== 'Escape' || document.querySelector('[role=alertdialog]')) return;
      close();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);
  const close = () => {
    onClose();
    document.querySelector<HTMLElement>('[data-action=help]')?.focus();
  };
  const t = LL.value;
  const text = page ? t.help.pages[page.id]() : t.help.pages.notfound();
  return (
    <aside class="help card" ref={box} tabIndex={-1} aria-labelledby="help-title" aria-busy={helpReady.value ? undefined : 'true'}>
      <div class="row between">
        <h2 id="help-title">{t.shell.help()}</h2>
        <button type="button" class="btn small" onClick={close}>
          {t.shell.close()}
        </button>
      </div>
      {helpReady.value ? text?.split('\n').map((para, i) => <p key={i}>{para}</p>) : <p>{t.shell.loading()}</p>}
    </aside>
  );
}
