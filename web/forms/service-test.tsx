// The connection test of a service page: the shared TestAction (button, unsaved-changes question,
// refusals) with the steps the daemon tried against the peer and, on failure, why in the user's
// language followed by the peer's own words.
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { runServiceTest, type TestedSection } from '../api/servicetest.ts';
import { TestAction } from './test-action.tsx';
import { LL } from '../i18n/translate.ts';

function ServiceTestResultView({ result }: { result: ServiceTestResult }) {
  const t = LL.value.service.test;
  return (
    <div class="test-result" data-outcome={result.ok ? 'ok' : 'failed'}>
      <p class={result.ok ? 'ok' : 'error'} role={result.ok ? undefined : 'alert'} data-summary>
        {result.ok ? t.ok({ peer: result.peer, ms: result.ms }) : t.failed({ peer: result.peer, reason: t.failures[result.failure?.reason ?? 'peer_error']() })}
      </p>
      {result.failure && <pre class="peer-message" data-peer-message>{result.failure.message}</pre>}
      <ol class="test-steps">
        {result.steps.map((s, i) => (
          <li key={i} data-step={s.step} data-ok={String(s.ok)}>
            <span class="badge">{s.ok ? '✓' : '✗'}</span> {t.steps[s.step]()}{s.detail && s.ok ? `: ${s.detail}` : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The test of `section` on its saved settings; `body` adds what the test needs besides them. */
export function ServiceTest({ section, body }: { section: TestedSection; body?: Record<string, unknown> }) {
  return (
    <TestAction sections={[section]} run={() => runServiceTest(section, body)} action="servicetest" attrs={{ 'data-servicetest': section }}
      texts={LL.value.service.test} Result={ServiceTestResultView} />
  );
}
