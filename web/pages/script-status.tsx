// The script's live status on /script (the one status answer, device/model/script/status.ts; spec §9
// update tick 1500 ms): whether it runs, the last failed statement with its line, each section's
// runs, last run and overruns; a saved script with errors lists them, so the page says why it does
// not run.
import { useEffect } from 'preact/hooks';
import type { ServiceStatus } from '../api/service-status.ts';
import { StateBadge, type StatusFact, StatusList } from '../forms/status-list.tsx';
import { formatDateTime, formatNumber, LL, labelled } from '../i18n/translate.ts';
import { scriptStatus, scriptStatusFailed, watchScriptStatus } from '../state/script-status.ts';
import { scriptErrorLine } from './script-check.tsx';

type Shown = 'off' | 'running' | 'refused' | 'error';
const TONE = { off: '', running: 'up', refused: 'down', error: 'down' } as const;

function shownState(s: ServiceStatus): Shown {
  if (!s.enabled) return 'off';
  if ((s.script?.errors.length ?? 0) > 0) return 'refused';
  return s.state === 'running' ? 'running' : 'error';
}

function facts(s: ServiceStatus): StatusFact[] {
  const t = LL.value.scriptLang.status;
  const state = shownState(s);
  const failure = s.script?.lastFailure;
  return [
    {
      item: 'state',
      label: t.state(),
      value: (
        <StateBadge state={state} tone={TONE[state]}>
          {t.states[state]()}
        </StateBadge>
      ),
    },
    ...(state === 'refused'
      ? (s.script?.errors ?? []).map((e, i) => ({
          item: `script-error-${i}`,
          label: '',
          value: (
            <span class="error" data-status-error={e.code}>
              {scriptErrorLine(e)}
            </span>
          ),
        }))
      : []),
    {
      item: 'last-error',
      label: t.lastError(),
      value: failure ? (
        <span class="error" data-line={failure.line}>{`${labelled(t.line({ line: failure.line }), failure.message)} · ${formatDateTime(failure.at)}`}</span>
      ) : (
        t.none()
      ),
    },
    ...(s.enabled && (s.script?.sections.length ?? 0) > 0 ? [{ item: 'sections', label: t.section(), value: <Sections s={s} /> }] : []),
  ];
}

function Sections({ s }: { s: ServiceStatus }) {
  const t = LL.value.scriptLang.status;
  const sections = s.script?.sections ?? [];
  return (
    <table class="file-list" data-script-sections>
      <thead>
        <tr>
          <th>{t.section()}</th>
          <th>{t.runs()}</th>
          <th>{t.lastRun()}</th>
          <th>{t.duration()}</th>
          <th>{t.overruns()}</th>
        </tr>
      </thead>
      <tbody>
        {sections.map((x) => (
          <tr key={x.section} data-section={x.section}>
            <td>[{x.section}]</td>
            <td data-runs>{formatNumber(x.runs)}</td>
            <td>{x.lastRun !== undefined ? formatDateTime(x.lastRun) : t.never()}</td>
            <td>{x.durationMs !== undefined ? `${formatNumber(x.durationMs)} ms` : ''}</td>
            <td data-overruns>{formatNumber(x.overruns)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ScriptStatusBlock() {
  useEffect(() => watchScriptStatus(), []);
  const s = scriptStatus.value;
  return <StatusList block="script-status" title={LL.value.scriptLang.status.title()} failed={scriptStatusFailed.value} facts={s ? facts(s) : null} />;
}
