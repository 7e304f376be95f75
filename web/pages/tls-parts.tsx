// Pieces the TLS client and TLS server pages share (spec §3 "TLS (pew_tls)", §5): the allowed
// client range with its all-addresses note, and the minimum TLS version with the proposal of
// spec §3 ("1.2 or 1.3 for new setups"), shown as a warning while an older minimum is chosen.
import { isAllAddresses } from '../../device/model/ip.ts';
import { Field } from '../forms/field.tsx';
import { section } from '../state/sections.ts';
import { LL } from '../i18n/translate.ts';

export const TLS_KEY = 'pew_tls';
/** the minimum versions spec §3 proposes for new setups */
const PROPOSED = ['1.2', '1.3'];

export function AccessRange({ on, ip1, ip2 }: { on: string; ip1: string; ip2: string }) {
  const m = section(TLS_KEY).temp.value;
  const a = m[ip1];
  const b = m[ip2];
  return (
    <>
      <Field section={TLS_KEY} path={on} />
      <Field section={TLS_KEY} path={ip1} />
      <Field section={TLS_KEY} path={ip2} />
      {typeof a === 'string' && typeof b === 'string' && isAllAddresses(a, b) &&
        <p class="note" data-note="all-addresses">{LL.value.port.allAddresses()}</p>}
    </>
  );
}

export function MinVersion({ path }: { path: string }) {
  const old = !PROPOSED.includes(String(section(TLS_KEY).temp.value[path]));
  return (
    <>
      <Field section={TLS_KEY} path={path} />
      <p class={old ? 'banner warning note' : 'note'} data-note="tls-version" data-old={old || undefined}>{LL.value.tls.newSetups()}</p>
    </>
  );
}
