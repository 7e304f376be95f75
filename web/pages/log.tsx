// /log (spec §2 "Data logger: general, log file settings, CSV import/export of variables,
// list/download log files"; §3 "Data logger (pew_log)"; §4; §5; §8; §9 Logger): the general
// settings, the log files with their settings, the data points of the selected log file, the
// variable list import and export, and the files on the storage. Save and reset are in the page bar.
// Above them the logger's live status (log-status.tsx).
import { useEffect } from 'preact/hooks';
import { MultipleRegisterBanner } from '../forms/register.tsx';
import { LL } from '../i18n/translate.ts';
import { stepping, useSteps } from '../shell/in-steps.tsx';
import { earlyLogStatus, watchLogStatus } from '../state/log-status.ts';
import css from '../styles/log.css' with { type: 'text' };
import { LogFiles } from './log-files.tsx';
import { LogGeneral } from './log-general.tsx';
import { LogPoints } from './log-points.tsx';
import { LogStatusBlock } from './log-status.tsx';
import { LogStorage } from './log-storage.tsx';
import { LogTransfer } from './log-transfer.tsx';
import { SecurityHint } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyLogStatus();

export default function LogPage() {
  useEffect(() => watchLogStatus(), []);
  // in steps (web/shell/in-steps.tsx), the first screen first: the status and the general settings
  // (the page's data on its first screen, and all of the daemon's first frame); then the list of
  // log files and the selected one's points (the table draws only the rows in view; at 1280 × 800
  // the points begin two screens down); the selected file's settings (in the list's card, above
  // the points); the variable list and the storages
  const count = 4;
  const shown = useSteps(count);
  return (
    <div class="log" data-page="log" {...stepping(shown, count)}>
      <SecurityHint section="pew_log" codes={['frequent_writes']} />
      <style>{css as string}</style>
      <p class="hint intro">{LL.value.logger.intro()}</p>
      <MultipleRegisterBanner />
      <LogStatusBlock />
      <LogGeneral />
      {shown >= 2 && (
        <>
          <LogFiles settings={shown >= 3} />
          <LogPoints />
        </>
      )}
      {shown >= 4 && (
        <>
          <LogTransfer />
          <LogStorage />
        </>
      )}
    </div>
  );
}
