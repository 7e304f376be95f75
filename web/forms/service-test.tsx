// The connection test of a service page: the shared TestAction (button, unsaved-changes question,
// refusals) with the steps the daemon tried against the peer, shown as they happen, and, on
// failure, why in the user's language followed by the peer's own words.
import type { ServiceTestResult, TestNote, TestStep } from '../../device/model/servicetest.ts';
import { runServiceTest, type TestedSection, type TestProgress } from '../api/servicetest.ts';
import { LL, labelled, shownArgs } from '../i18n/translate.ts';
import { TestAction } from './test-action.tsx';

/** What a step found in the console's language, the peer's own words after it (device/model/servicetest.ts TEST_NOTES). */
export function testNoteText(n: TestNote): string {
  const text = (LL.value.service.test.notes[n.code] as (p: Record<string, string>) => string)(shownArgs(n.args, ['qos', 'code', 'status']));
  return n.words ? labelled(text, n.words) : text;
}

/** The steps ended, each with its mark, and the one under way (`running`). */
function StepList({ steps, running }: { steps: ServiceTestResult['steps']; running?: TestStep | undefined }) {
  const t = LL.value.service.test;
  const current = running !== undefined && steps.length > 0 && steps.at(-1)!.step === running ? undefined : running;
  return (
    <ol class="test-steps">
      {steps.map((s, i) => (
        <li key={i} data-step={s.step} data-ok={String(s.ok)} data-note={s.note?.code}>
          <span class="badge">{s.ok ? '✓' : '✗'}</span> {s.note && s.ok ? labelled(t.steps[s.step](), testNoteText(s.note)) : t.steps[s.step]()}
        </li>
      ))}
      {current && (
        <li data-step={current} data-running aria-busy="true">
          <span class="badge">…</span> {t.steps[current]()}
        </li>
      )}
    </ol>
  );
}

/** While the test runs: the steps so far. */
function ServiceTestProgress({ progress }: { progress: TestProgress }) {
  return (
    <div class="test-result" data-outcome="running">
      <StepList steps={progress.steps} running={progress.running} />
    </div>
  );
}

function ServiceTestResultView({ result }: { result: ServiceTestResult }) {
  const t = LL.value.service.test;
  return (
    <div class="test-result" data-outcome={result.ok ? 'ok' : 'failed'}>
      <p class={result.ok ? 'ok' : 'error'} role={result.ok ? undefined : 'alert'} data-summary>
        {result.ok ? t.ok({ peer: result.peer, ms: result.ms }) : t.failed({ peer: result.peer, reason: t.failures[result.failure?.reason ?? 'peer_error']() })}
      </p>
      {result.failure && (
        <pre class="peer-message" data-peer-message>
          {result.failure.note ? testNoteText(result.failure.note) : result.failure.message}
        </pre>
      )}
      <StepList steps={result.steps} />
    </div>
  );
}

/** The test of `section` on its saved settings; `body` adds what the test needs besides them. */
export function ServiceTest({ section, body }: { section: TestedSection; body?: Record<string, unknown> }) {
  return (
    <TestAction
      sections={[section]}
      run={(progress: (p: TestProgress) => void) => runServiceTest(section, body, progress)}
      action="servicetest"
      attrs={{ 'data-servicetest': section }}
      texts={LL.value.service.test}
      Result={ServiceTestResultView}
      Progress={ServiceTestProgress}
    />
  );
}
