// The dead letters of a queued service on its page (docs/services.md "Dead letters"): how many are
// kept, and for the admin the download (CSV, JSON) and, each after a confirmation, retry (back into
// the queue for the saved target) and discard. The counts come with the one status answer.
import { useState } from 'preact/hooks';
import type { DeadLetterService } from '../../device/model/dead-letters.ts';
import { deadLetterUrl, discardDeadLetters, retryDeadLetters } from '../api/dead-letters.ts';
import type { ServiceStatus } from '../api/service-status.ts';
import { formatNumber, LL } from '../i18n/translate.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';
import { failureText } from './certificates.tsx';

/** "3 kept · 0 dropped at the bound" */
export function deadLetterValue(d: NonNullable<ServiceStatus['deadLetters']>): string {
  return LL.value.serviceStatus.deadValue({ count: formatNumber(d.count), dropped: formatNumber(d.dropped) });
}

export function DeadLetterActions({ service, s }: { service: DeadLetterService; s: ServiceStatus }) {
  const [busy, setBusy] = useState(false);
  const t = LL.value.serviceStatus;
  const count = s.deadLetters?.count ?? 0;
  if (count === 0 || readOnly.value) return null;
  const act = async (what: 'retry' | 'discard') => {
    const n = formatNumber(count);
    const q =
      what === 'retry'
        ? { title: t.deadRetryTitle(), text: t.deadRetryText({ count: n }), yes: t.deadRetry(), no: t.cancel() }
        : { title: t.deadDiscardTitle(), text: t.deadDiscardText({ count: n }), yes: t.deadDiscard(), no: t.cancel() };
    if (!(await ask(q))) return;
    setBusy(true);
    try {
      const done = what === 'retry' ? await retryDeadLetters(service) : await discardDeadLetters(service);
      notify('info', what === 'retry' ? t.deadRetried({ count: formatNumber(done) }) : t.deadDiscarded({ count: formatNumber(done) }));
    } catch (e) {
      notify('error', failureText('', e).trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="row" data-block="dead-letters" data-service={service}>
      <a class="btn small" href={deadLetterUrl(service, 'csv')} download data-action="dead-csv">
        {t.deadCsv()}
      </a>
      <a class="btn small" href={deadLetterUrl(service, 'json')} download data-action="dead-json">
        {t.deadJson()}
      </a>
      <button type="button" class="btn small" disabled={busy} onClick={() => void act('retry')} data-action="dead-retry">
        {t.deadRetry()}
      </button>
      <button type="button" class="btn small danger" disabled={busy} onClick={() => void act('discard')} data-action="dead-discard">
        {t.deadDiscard()}
      </button>
    </div>
  );
}
