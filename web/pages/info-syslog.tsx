// The system log of /info (spec §2 /info, §7 get_syslogs) as lines a person reads: the time in the
// user's language, the level as a word, the message; an entry's fields open on demand, one
// "name: value" each, instead of raw JSON.

import { formatDateTime, LL } from '../i18n/translate.ts';
import type { SyslogEntry } from '../state/system.ts';

/** how many of the latest entries are shown */
export const SYSLOG_SHOWN = 200;

const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function levelText(level: string): string {
  const t = LL.value.info.syslogLevels;
  return level === 'error' ? t.error() : level === 'warn' ? t.warn() : level === 'info' ? t.info() : level;
}

export function SyslogList({ entries }: { entries: readonly SyslogEntry[] }) {
  return (
    <ol class="syslog syslog-list" tabIndex={0} data-syslog aria-labelledby="info-syslog">
      {entries.slice(-SYSLOG_SHOWN).map((e, i) => {
        const at = new Date(e.time);
        const fields = Object.entries(e.fields ?? {});
        return (
          <li key={i} data-level={e.level}>
            <time dateTime={at.toISOString()}>{formatDateTime(at)}</time> <span class="level">{levelText(e.level)}</span> <span class="msg">{e.msg}</span>
            {fields.length > 0 && (
              <details>
                <summary>{LL.value.info.syslogDetails()}</summary>
                <dl>
                  {fields.map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd>{valueText(v)}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            )}
          </li>
        );
      })}
    </ol>
  );
}
