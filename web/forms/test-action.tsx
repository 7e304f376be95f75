// A test action of a page (the PLC test on /com, the connection test of a thread on /port): the
// button (disabled for the user role and while running), the question when the page's sections
// have unsaved changes (the test runs on the saved settings, spec §2), what the test has done so
// far while it runs (when it tells), and the last result or the daemon's refusal in the user's
// language. Also the monospace box for what went over the wire.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { IssueParams } from '../../device/model/issues.ts';
import { ApiFailure, type ClientCode } from '../api/client.ts';
import { errorText } from '../i18n/translate.ts';
import { confirmBeforeTest } from '../shell/actions.ts';
import { readOnly } from '../state/session.ts';

type TestState<R, P> =
  | { kind: 'idle' }
  | { kind: 'running'; progress?: P }
  | { kind: 'done'; result: R }
  | { kind: 'refused'; code: ClientCode; params?: IssueParams };

export interface TestActionProps<R, P = never> {
  /** the sections the test runs on: unsaved changes in them are asked about first */
  sections: string[];
  /** runs the test; a test that tells how far it is calls `progress` */
  run: (progress: (p: P) => void) => Promise<R>;
  /** `data-action` of the button, e.g. `plctest` */
  action: string;
  /** attributes of the block, e.g. `{ 'data-plctest': 0 }` */
  attrs: Record<string, string | number>;
  texts: { test(): string; testing(): string; testNote(): string };
  Result: (props: { result: R }) => JSX.Element;
  /** what the test has done so far, shown while it runs */
  Progress?: (props: { progress: P }) => JSX.Element;
}

export function TestAction<R, P = never>({ sections, run, action, attrs, texts, Result, Progress }: TestActionProps<R, P>) {
  const [state, setState] = useState<TestState<R, P>>({ kind: 'idle' });
  const running = state.kind === 'running';
  const start = async () => {
    if (!(await confirmBeforeTest(sections))) return;
    setState({ kind: 'running' });
    try {
      const result = await run((progress) => setState({ kind: 'running', progress }));
      setState({ kind: 'done', result });
    } catch (e) {
      const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
      setState({ kind: 'refused', code: f.code, ...(f.params ? { params: f.params } : {}) });
    }
  };
  return (
    <div class="plc-test" {...attrs}>
      <div class="row">
        <button
          type="button"
          class="btn"
          data-action={action}
          disabled={readOnly.value || running}
          aria-busy={running || undefined}
          onClick={() => void start()}
        >
          {running ? texts.testing() : texts.test()}
        </button>
        <span class="hint">{texts.testNote()}</span>
      </div>
      <div aria-live="polite">
        {state.kind === 'running' && Progress && state.progress !== undefined && <Progress progress={state.progress} />}
        {state.kind === 'done' && <Result result={state.result} />}
        {state.kind === 'refused' && (
          <p class="error" role="alert" data-outcome="refused">
            {errorText(state.code, state.params)}
          </p>
        )}
      </div>
    </div>
  );
}

/** Control characters of a raw reply (the CR that ends every MEWTOCOL frame) shown as their symbols. */
export const visibleRaw = (raw: string) =>
  raw.replace(/[\u0000-\u001f\u007f]/g, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));

/** What went over the wire, in a captioned monospace box; `empty` when nothing did. */
export function WireBox({ caption, text, empty, attrs }: { caption: string; text: string; empty: string; attrs: Record<string, string | boolean> }) {
  return (
    <figure class="raw">
      <figcaption>{caption}</figcaption>
      {text ? (
        <pre {...attrs}>{visibleRaw(text)}</pre>
      ) : (
        <pre {...attrs} class="empty">
          {empty}
        </pre>
      )}
    </figure>
  );
}
