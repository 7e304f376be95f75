// The live part of an interface block on /com: the link status of the last update tick and the
// PLC test (spec §5: runs on the saved settings of an enabled interface; §8: a refusal names why,
// a failure shows a note plus the raw reply).
import { type LinkStatus, type PlcTestResult, runPlcTest } from '../api/com.ts';
import { TestAction, WireBox } from '../forms/test-action.tsx';
import { formatWholePercent } from '../i18n/plain-decimal.ts';
import { formatNumber, formatValue, LL, labelled } from '../i18n/translate.ts';
import { plcFamilyText } from '../i18n/unit-values.ts';
import { LinkState } from './link-states.tsx';

/** A link's busy share as a whole percent (without Intl in the three languages: web/i18n/plain-decimal.ts). */
export const busyPercent = (share: number): string =>
  formatWholePercent(share, LL.value.app.dateLocale()) ?? formatNumber(share, { style: 'percent', maximumFractionDigits: 0 });

/** State badge, the reason it is not up, baud rate and counters of one link; "status unavailable" when the last call failed. */
export function LinkStatusView({ link, failed }: { link: LinkStatus | undefined; failed: boolean }) {
  const t = LL.value.com;
  if (failed) {
    return (
      <div class="link-status" data-status="unavailable">
        <p class="hint">{t.unavailable()}</p>
      </div>
    );
  }
  if (!link) return <div class="link-status" data-status="none" aria-busy="true" />;
  const s = link.stats;
  const counters: [string, string][] = [
    ['requests', formatNumber(s.requests)],
    ['errors', formatNumber(s.errors)],
    ['timeouts', formatNumber(s.timeouts)],
    ['retries', formatNumber(s.retries)],
    ['lateAnswers', formatNumber(s.lateAnswers)],
    ['mismatched', formatNumber(s.mismatched)],
    ['checkErrors', formatNumber(s.checkErrors)],
    ['invalidFrames', formatNumber(s.invalidFrames)],
    ['plcErrors', formatNumber(s.plcErrors)],
    ...(s.lastPlcError !== undefined ? [['lastPlcError', String(s.lastPlcError).padStart(2, '0')] as [string, string]] : []),
    ['reconnects', formatNumber(s.reconnects)],
    ['bytesOut', formatNumber(s.bytesOut)],
    ['bytesIn', formatNumber(s.bytesIn)],
    ['busyShare', busyPercent(s.busyShare)],
  ];
  return (
    <div class="link-status" data-status={link.state}>
      <p class="row">
        <span class="sr">{labelled(t.status(), '')}</span>
        <LinkState link={link} />
        {typeof link.baudRate === 'number' && <span data-baud>{t.baud({ rate: formatValue(link.baudRate) })}</span>}
        {link.autobaud && (
          <span class="hint" data-autobaud={link.autobaud}>
            {t.autobaud[link.autobaud]()}
          </span>
        )}
      </p>
      <dl class="counters">
        {counters.map(([k, value]) => (
          <div key={k} data-counter={k}>
            <dt>{t.stats[k as keyof typeof t.stats]()}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function RawReply({ raw }: { raw: string }) {
  const t = LL.value.com;
  return <WireBox caption={t.raw()} text={raw} empty={t.noReply()} attrs={{ 'data-raw': true }} />;
}

function TestResult({ result }: { result: PlcTestResult }) {
  const t = LL.value.com;
  if (!result.ok) {
    const note = [t.failed(), t.reasons[result.reason](), typeof result.code === 'number' ? t.errorCode({ code: result.code }) : ''].filter(Boolean).join(' ');
    return (
      <div class="test-result failed" data-outcome="failed" data-reason={result.reason}>
        <p class="error" data-note>
          {note}
        </p>
        <RawReply raw={result.raw} />
      </div>
    );
  }
  const facts: [string, string][] = [[t.family(), plcFamilyText(LL.value, result.cpu.family)]];
  if (result.model) facts.push([t.model(), result.model]);
  if (result.version) facts.push([t.version(), result.version]);
  if (result.mode) facts.push([t.mode(), result.mode]);
  return (
    <div class="test-result ok" data-outcome="ok">
      <p class="hint">{t.testOk()}</p>
      <p class="cpu" data-cpu>
        {t.cpu({ name: result.cpu.name === 'unknown' ? t.cpuUnknown() : result.cpu.name })}
      </p>
      <dl class="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <RawReply raw={result.raw} />
    </div>
  );
}

/** The PLC test button of one interface and its last result (the user role sees the button disabled). */
export function PlcTest({ id, sectionKey }: { id: number; sectionKey: string }) {
  // the test talks to the PLC with the saved settings: unsaved edits would not be tested (spec §2)
  return (
    <TestAction sections={[sectionKey]} run={() => runPlcTest(id)} action="plctest" attrs={{ 'data-plctest': id }} texts={LL.value.com} Result={TestResult} />
  );
}
