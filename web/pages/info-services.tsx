// The services and factory reset blocks of /info (spec §2 /info, §3 service names, §4 "a service is
// either enabled or disabled", §5 security warnings, §7 pew_system). The administrator switches
// services and saves them; the warnings of VNC, autorun and the VPN without NTP show beside their
// switch as soon as the switch moves (the same rule as the daemon, device/model/warnings.ts). The
// user role sees the states read-only. The factory reset asks first and names what is lost; after
// it the console shows the first-run setup. /info loads this block after its first paint (it is the
// console's first page, within the size budget of build/budget.ts).
import { useState } from 'preact/hooks';
import { serviceWarnings } from '../../device/model/service-states.ts';
import type { ServiceName } from '../../hw/types.ts';
import { ApiFailure, setCsrf } from '../api/client.ts';
import { factoryReset } from '../api/services.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { ask } from '../state/confirm.ts';
import { notify, SAVED_MS } from '../state/notify.ts';
import { pendingServices, revertServices, saveServiceEdits, serviceEdits, switchService } from '../state/service-edits.ts';
import { authState, readOnly, session } from '../state/session.ts';
import { services, systemInfo } from '../state/system.ts';
import css from '../styles/services.css' with { type: 'text' };

export { ConsoleCertificateCard } from './info-console-cert.tsx';
export { ServiceRunCard } from './info-service-run.tsx';

const descKey = (name: ServiceName) => name.replace('-', '_') as keyof typeof LL.value.services.desc;

const failureText = (e: unknown): string => {
  if (!(e instanceof ApiFailure)) return errorText('internal');
  if (e.code === 'save_failed' && typeof e.params?.service === 'string') return LL.value.services.failedService({ service: e.params.service });
  return errorText(e.code, e.params);
};

export function ServicesCard() {
  const t = LL.value.services;
  const [busy, setBusy] = useState(false);
  const admin = !readOnly.value;
  const changes = serviceEdits.value;
  const shown = services.value.map((s) => ({ ...s, enabled: changes[s.name as ServiceName] ?? s.enabled }));
  const pending = pendingServices.value;
  const warnings = serviceWarnings(shown); // the §5 warnings of the services, beside their switches
  const texts = LL.value.info.warning;

  const save = async () => {
    setBusy(true);
    try {
      await saveServiceEdits();
      notify('info', t.saved(), SAVED_MS);
    } catch (e) {
      notify('error', t.saveFailed({ reason: failureText(e) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="info-services" data-block="services">
      <style>{css as string}</style>
      <h2 id="info-services">{LL.value.info.services()}</h2>
      <p class="hint">{admin ? t.intro() : t.readOnly()}</p>
      <ul class="services editable">
        {shown.map((s) => {
          const name = s.name as ServiceName;
          const id = `service-${name}`;
          const changed = pending.some(([n]) => n === name);
          return (
            <li key={name} data-service={name} class={s.enabled ? 'on' : 'off'}>
              <label for={id}>
                <input
                  id={id}
                  type="checkbox"
                  role="switch"
                  aria-describedby={`${id}-desc`}
                  checked={s.enabled}
                  disabled={!admin || busy}
                  data-service-switch={name}
                  onChange={(e) => switchService(name, (e.target as HTMLInputElement).checked)}
                />
                <strong>{name}</strong>
                <span class="state">
                  {s.enabled ? LL.value.info.enabled() : LL.value.info.disabled()}
                  {changed ? ` · ${t.changed()}` : ''}
                </span>
              </label>
              <p class="hint" id={`${id}-desc`}>
                {t.desc[descKey(name)]()}
              </p>
              {warnings
                .filter((w) => w.subjects.includes(name))
                .map((w) => (
                  <p key={w.code} class="banner warning" data-security={w.code}>
                    {texts[w.code]({ subjects: w.subjects.join(', ') })}
                  </p>
                ))}
            </li>
          );
        })}
      </ul>
      {admin && (
        <div class="row end">
          <button type="button" class="btn primary" data-action="save-services" disabled={busy || pending.length === 0} onClick={() => void save()}>
            {t.save()}
          </button>
        </div>
      )}
    </section>
  );
}

export function FactoryResetCard() {
  const t = LL.value.services.reset;
  const [busy, setBusy] = useState(false);
  if (readOnly.value) return null;
  const run = async () => {
    const yes = await ask({ title: t.confirmTitle(), text: `${t.lost()} ${t.confirmText()}`, yes: t.yes(), no: t.no() });
    if (!yes) return;
    setBusy(true);
    try {
      await factoryReset();
    } catch (e) {
      setBusy(false);
      notify('error', t.failed({ reason: failureText(e) }));
      return;
    }
    // every session ended with the users: the console starts over at the first-run setup, and
    // shows nothing of the unit as it was (the console loads it again after the setup)
    setCsrf('');
    session.value = null;
    services.value = [];
    revertServices();
    systemInfo.value = null;
    location.hash = '#/';
    authState.value = 'setup';
    notify('info', t.done());
  };
  return (
    <section class="card" aria-labelledby="info-reset" data-block="factory-reset">
      <h2 id="info-reset">{t.title()}</h2>
      <p>{t.intro()}</p>
      <p class="hint">{t.lost()}</p>
      <p class="hint">{t.kept()}</p>
      <div class="row end">
        <button type="button" class="btn danger" data-action="factory-reset" disabled={busy} onClick={() => void run()}>
          {busy ? LL.value.shell.loading() : t.button()}
        </button>
      </div>
    </section>
  );
}
