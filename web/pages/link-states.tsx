// The state of a PLC link and of a redirect thread in words, with why it is not up: the same badge in
// its block (/com, /port), in the overview tables at the top of those pages and on /info.
import type { LinkStatus } from '../api/com.ts';
import type { PortThreadStatus } from '../api/port.ts';
import { ReasonDetail } from '../forms/status-list.tsx';
import { LL } from '../i18n/translate.ts';

export function LinkState({ link }: { link: LinkStatus }) {
  return (
    <>
      <span class={`state ${link.state}`} data-state={link.state}>
        {LL.value.com.states[link.state]()}
      </span>
      {link.reason && <ReasonDetail reason={link.reason} />}
    </>
  );
}

export function ThreadState({ status }: { status: PortThreadStatus }) {
  const t = LL.value.port;
  const state = status.listening ? 'listening' : 'closed';
  return (
    <>
      <span class={`state ${status.listening ? 'up' : 'down'}`} data-state={state}>
        {status.listening ? t.listening({ port: status.port }) : t.closed({ port: status.port })}
      </span>
      {status.reason && <ReasonDetail reason={status.reason} />}
    </>
  );
}
