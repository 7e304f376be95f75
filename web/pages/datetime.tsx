// /datetime (spec §2 "PLC clock / time-date update"; §3 "RTC (pew_rtc)"; §9 RTC control register
// offset 5, poll time 1-120 s, update time 0-10080 min, DT 0-999424): when the unit writes its time
// into the PLC clock, and a live status block (the `rtc` entry of GET /config/service_status every update tick of spec §9)
// with the unit's time running on between two answers. Save and reset are in the page bar.
import { useEffect, useState } from 'preact/hooks';
import { RTC_REGISTERS } from '../../device/model/sections/rtc.ts';
import { FP_CLOCK_WORDS } from '../../device/protocol/fp-clock.ts';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { LL, labelled } from '../i18n/translate.ts';
import { rtcStatus, rtcStatusFailed, unitTimeNow, watchRtcStatus } from '../state/rtc-status.ts';
import { section } from '../state/sections.ts';

const KEY = 'pew_rtc';
const SECOND_MS = 1000;

/** Date and time in the unit's zone; an unknown zone name falls back to the browser's. */
function formatTime(ms: number, locale: string, timeZone: string): string {
  const opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'medium' };
  try {
    return new Intl.DateTimeFormat(locale, { ...opts, timeZone }).format(ms);
  } catch {
    return new Intl.DateTimeFormat(locale, opts).format(ms);
  }
}

function StatusBlock() {
  const t = LL.value.datetime;
  const info = LL.value.info;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), SECOND_MS);
    return () => clearInterval(timer);
  }, []);
  const seen = rtcStatus.value;
  let body: preact.JSX.Element;
  if (rtcStatusFailed.value)
    body = (
      <p class="hint" data-status="unavailable">
        {LL.value.com.unavailable()}
      </p>
    );
  else if (!seen)
    body = (
      <p class="hint" data-status="none" aria-busy="true">
        {LL.value.shell.loading()}
      </p>
    );
  else {
    const s = seen.status;
    const locale = LL.value.app.dateLocale();
    const unit = unitTimeNow(seen, now);
    const last = s.lastSync;
    const ntp = s.ntp.enabled
      ? `${info.enabled()} · ${s.ntp.synchronized ? t.synced() : t.notSynced()}${s.ntp.servers.length ? ` · ${s.ntp.servers.join(', ')}` : ''}`
      : info.disabled();
    body = (
      <dl class="facts" data-status="ok">
        <div data-item="unit-time" data-ms={unit}>
          <dt>{info.unitTime()}</dt>
          <dd>{formatTime(unit, locale, s.timezone)}</dd>
        </div>
        <div data-item="timezone">
          <dt>{info.timezone()}</dt>
          <dd>{s.timezone}</dd>
        </div>
        <div data-item="ntp" data-ntp={s.ntp.enabled ? String(s.ntp.synchronized) : 'off'}>
          <dt>{info.ntp()}</dt>
          <dd>{ntp}</dd>
        </div>
        <div data-item="running" data-running={String(s.running)}>
          <dt>{t.running()}</dt>
          <dd>
            <span class={`state ${s.running ? 'up' : ''}`}>{s.running ? t.yes() : t.no()}</span>
          </dd>
        </div>
        <div data-item="last-sync" data-ok={last ? String(last.ok) : undefined}>
          <dt>{t.lastSync()}</dt>
          <dd>
            {!last ? (
              t.never()
            ) : (
              <>
                {`${formatTime(last.at, locale, s.timezone)} · ${t.triggers[last.trigger]()} · `}
                {last.ok ? (
                  <span data-result="ok">{last.written ? t.ok({ written: last.written }) : '✓'}</span>
                ) : (
                  <span class="error" data-result="failed">
                    {labelled(t.failed(), last.failure ? LL.value.com.reasons[last.failure.reason]() : '')}
                    {last.failure?.message && <span class="detail" data-detail>{` (${last.failure.message})`}</span>}
                  </span>
                )}
              </>
            )}
          </dd>
        </div>
      </dl>
    );
  }
  return (
    <section class="card group" aria-labelledby="datetime-status" data-block="rtc-status">
      <h2 id="datetime-status">{t.status()}</h2>
      {body}
    </section>
  );
}

export default function DatetimePage() {
  useEffect(() => watchRtcStatus(), []);
  const t = LL.value.datetime;
  const m = section(KEY).temp.value;
  return (
    <div class="service" data-page="datetime">
      <MultipleRegisterBanner />
      <StatusBlock />
      <FieldGroup title={t.sync()} id="datetime-sync">
        <Field section={KEY} path="rtc_update_by_time" unit="min" />
        <Field section={KEY} path="rtc_by_plc" />
        <Field section={KEY} path="rtc_control_rtc_r" />
        <RegisterFootprint start={m.rtc_control_rtc_r as number} length={RTC_REGISTERS} />
        <Field section={KEY} path="rtc_polling" unit="s" />
      </FieldGroup>
      <FieldGroup title={t.clock()} id="datetime-clock">
        <Field section={KEY} path="rtc_address_dt" />
        <RegisterFootprint start={m.rtc_address_dt as number} length={FP_CLOCK_WORDS} />
        <Field section={KEY} path="rtc_sync_as_utc" />
      </FieldGroup>
    </div>
  );
}
