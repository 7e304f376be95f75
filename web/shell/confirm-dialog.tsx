import { useEffect, useRef } from 'preact/hooks';
import { question } from '../state/confirm.ts';
import css from '../styles/dialog.css' with { type: 'text' };

/** The modal question; Escape answers no, the safe button has the focus. */
export function ConfirmDialog() {
  const q = question.value;
  const safe = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (q) safe.current?.focus();
  }, [q]);
  if (!q) return null;
  return (
    <div class="backdrop" onKeyDown={(e) => e.key === 'Escape' && q.resolve(false)}>
      <style>{css as string}</style>
      <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dlg-title" aria-describedby="dlg-text">
        <h2 id="dlg-title">{q.title}</h2>
        <p id="dlg-text">{q.text}</p>
        <div class="row end">
          <button type="button" ref={safe} class="btn" onClick={() => q.resolve(false)}>
            {q.no}
          </button>
          <button type="button" class="btn danger" onClick={() => q.resolve(true)}>
            {q.yes}
          </button>
        </div>
      </div>
    </div>
  );
}
