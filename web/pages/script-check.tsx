// The script editor's check (device/model/script/parse.ts, the parser the daemon uses): the text is
// parsed as the technician types; the line numbers beside the text mark each line in error, and the
// list under it gives every error with its line, column and message in the user's language. A click
// on an error puts the cursor on its place.
import type { RefObject } from 'preact';
import type { ScriptError } from '../../device/model/script/language.ts';
import { LL } from '../i18n/translate.ts';

/** The message of one parser error in the user's language. */
export function scriptErrorText(e: Pick<ScriptError, 'code' | 'params'>): string {
  const t = LL.value.scriptLang;
  const fn = (t.codes as unknown as Record<string, (p: Record<string, string>) => string>)[e.code];
  const params = Object.fromEntries(Object.entries(e.params ?? {}).map(([k, v]) => [k, String(v)]));
  return fn ? fn(params) : e.code;
}

export const scriptErrorLine = (e: ScriptError): string => LL.value.scriptLang.at({ line: e.line, column: e.column, message: scriptErrorText(e) });

/** Line numbers beside the editor, the lines in error marked (scrolled with the text). */
export function ScriptGutter({ lines, errors, scrollTop }: { lines: number; errors: readonly ScriptError[]; scrollTop: number }) {
  const bad = new Set(errors.map((e) => e.line));
  return (
    <div class="script-gutter" aria-hidden="true">
      <div style={{ transform: `translateY(${-scrollTop}px)` }}>
        {Array.from({ length: lines }, (_, i) => (
          <div key={i} class={bad.has(i + 1) ? 'bad' : undefined} data-gutter-line={i + 1}>
            {i + 1}
          </div>
        ))}
      </div>
    </div>
  );
}

/** Puts the cursor of the text area at a line and column (1-based). */
function goTo(area: HTMLTextAreaElement, line: number, column: number): void {
  const lines = area.value.split(/\r\n|\r|\n/);
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i]!.length + 1;
  at += column - 1;
  area.focus();
  area.setSelectionRange(at, at);
}

/** Every error of the text, or that there is none. */
export function ScriptProblems({ errors, area, id }: { errors: readonly ScriptError[]; area: RefObject<HTMLTextAreaElement | null>; id: string }) {
  const t = LL.value.scriptLang;
  if (errors.length === 0)
    return (
      <p id={id} class="hint" data-script-ok>
        {t.noProblems()}
      </p>
    );
  return (
    <div id={id} class="script-problems" role="alert">
      <p class="error">{t.problems({ count: errors.length })}</p>
      <ul>
        {errors.map((e) => (
          <li key={`${e.line}:${e.column}:${e.code}`} data-script-error={e.code} data-line={e.line} data-column={e.column}>
            <button
              type="button"
              class="link"
              onClick={() => {
                if (area.current) goTo(area.current, e.line, e.column);
              }}
            >
              {scriptErrorLine(e)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
