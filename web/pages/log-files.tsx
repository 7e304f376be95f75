// /log log file settings (spec §3 "Log file (entry of log_def)", §4, §9 log files 16): the list of
// log files to select, add and delete (the others renumbered from 1), every field of the selected
// one, and the time its reads take with the log interval warning (spec §3).
import { computed } from '@preact/signals';
import { INTERFACE_NAMES } from '../../device/model/plc.ts';
import { CONDITION, type LogFile, MAX_LOG_FILES, PLC_FLAG } from '../../device/model/sections/logfile.ts';
import type { ComInterface } from '../../device/model/sections/pew.ts';
import { errorText, formatDateTime, LL } from '../i18n/translate.ts';
import { addLogFile, removeLogFile } from '../log/edit.ts';
import { cycleExceeded, type ReadEstimate, readEstimator } from '../log/interval.ts';
import { fileIndex, KEY, logFiles, selectFile, setLogFiles } from '../log/page-state.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { section } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { LogField } from './log-field.tsx';
import { TimeOfDayField } from './log-time-field.tsx';

export const interfaceLabels = Object.fromEntries(Object.entries(INTERFACE_NAMES).map(([id, name]) => [id, name]));

// one estimator a place in the list of log files, each keeping its last answer (readEstimator)
const estimators: ReturnType<typeof readEstimator>[] = [];
const NO_INTERFACES: ComInterface[] = [];

/** The read estimate of every log file against the COM settings being edited; undefined where it cannot be made. */
export const estimates = computed<(ReadEstimate | undefined)[]>(() => {
  const v = section('pew').temp.value.interfaces;
  const interfaces = Array.isArray(v) ? (v as ComInterface[]) : NO_INTERFACES;
  return logFiles().map((f, i) => {
    try {
      return (estimators[i] ??= readEstimator())(f, i, interfaces);
    } catch {
      return undefined; // values being typed that do not resolve yet
    }
  });
});

/** The log interval warning of spec §3: a cyclic log file whose reads take longer than its cycle. */
export const intervalWarned = (f: LogFile, e: ReadEstimate | undefined): boolean => e !== undefined && cycleExceeded(f, e);

function add(): void {
  const files = addLogFile(logFiles());
  if (typeof files === 'string') return void notify('error', errorText('too_many', { max: MAX_LOG_FILES }));
  setLogFiles(files);
  selectFile(files.length - 1);
}

async function remove(index: number): Promise<void> {
  const t = LL.value.logger.file;
  const f = logFiles()[index];
  if (!f) return;
  const yes = await ask({
    title: t.removeTitle(),
    text: t.removeText({ name: f.name, count: f.records.length }),
    yes: t.removeYes(),
    no: LL.value.confirm.cancel(),
  });
  if (!yes) return;
  setLogFiles(removeLogFile(logFiles(), index));
  selectFile(Math.max(0, index - 1));
}

function LastTrigger({ at }: { at: unknown }) {
  const t = LL.value.logger.file;
  const text = typeof at === 'number' && at > 0 ? formatDateTime(at * 1000) : t.never();
  return (
    <div class="field" data-field="last_trig">
      <span class="label">{t.lastTrig()}</span>
      <span data-last-trig>{text}</span>
    </div>
  );
}

function Settings({ index, file }: { index: number; file: LogFile }) {
  const t = LL.value.logger;
  const f = t.fileFields;
  const at = `log_def.${index}`;
  const e = estimates.value[index];
  return (
    <div class="logfile-settings" data-logfile-settings={index}>
      <div class="grid">
        <LogField path={`${at}.name`} text={f.name} />
        <LogField path={`${at}.interface`} text={f.interface} optionLabels={interfaceLabels} />
        <LogField path={`${at}.plc_addr`} text={f.plc_addr} />
        <LogField path={`${at}.trigger`} text={f.trigger} />
        <LogField path={`${at}.split`} text={f.split} />
        <LogField path={`${at}.cycle`} text={f.cycle} unit="s" />
        {file.trigger === 2 && <TimeOfDayField path={`${at}.time_start`} text={f.time_start} />}
        {(file.trigger === CONDITION || file.trigger === PLC_FLAG) && <LogField path={`${at}.cond_trig`} text={f.cond_trig} />}
        {file.trigger === CONDITION && <LogField path={`${at}.cond_end`} text={f.cond_end} />}
        <LogField path={`${at}.enable_cond_store`} text={f.enable_cond_store} />
        {file.enable_cond_store && <LogField path={`${at}.cond_store`} text={f.cond_store} />}
        <LogField path={`${at}.repeat_count`} text={f.repeat_count} />
        <LogField path={`${at}.delay_store`} text={f.delay_store} />
        <LogField path={`${at}.file_max`} text={f.file_max} />
        <LastTrigger at={file.last_trig} />
      </div>
      {e && e.requests > 0 && (
        <p class="hint estimate" data-estimate>
          {t.file.estimate({ points: file.records.length, requests: e.requests, ms: Math.ceil(e.ms) })}
        </p>
      )}
      {intervalWarned(file, e) && (
        <p class="banner warning" role="alert" data-interval-warning>
          {t.file.interval({ ms: Math.ceil(e!.ms), requests: e!.requests, cycle: file.cycle })}
        </p>
      )}
    </div>
  );
}

/** The list of log files; with `settings` (a later step of the page: web/pages/log.tsx) the selected one's fields and the interval warning marks too. */
export function LogFiles({ settings = true }: { settings?: boolean }) {
  const t = LL.value.logger;
  const files = logFiles();
  const index = fileIndex(files.length);
  const file = files[index];
  const full = files.length >= MAX_LOG_FILES;
  const issues = section(KEY).shownValidation.value.issues;
  const invalid = (i: number) => issues.some((x) => x.path === `log_def.${i}` || x.path.startsWith(`log_def.${i}.`));
  return (
    <section class="card group" aria-labelledby="log-files" data-logfiles>
      <div class="row between">
        <h2 id="log-files">{t.titles.files()}</h2>
        <span class="hint" data-logfile-count>
          {t.file.count({ count: files.length, max: MAX_LOG_FILES })}
        </span>
      </div>
      {files.length === 0 ? (
        <p class="hint" data-empty>
          {t.file.none()}
        </p>
      ) : (
        <ul class="logfile-list">
          {files.map((f, i) => {
            // the estimates with the settings' step: 20 ms of /log's first render at CPU 4× for 700 points
            const warned = settings && intervalWarned(f, estimates.value[i]);
            return (
              <li key={i}>
                <button type="button" class="btn small" data-logfile={i} aria-pressed={i === index} onClick={() => selectFile(i)}>
                  {`${f.id} · ${f.name}`}
                  {invalid(i) && (
                    <span class="mark invalid" title={t.file.invalid()} data-mark="invalid">
                      !
                    </span>
                  )}
                  {warned && (
                    <span class="mark warn" title={t.file.warning()} data-mark="interval">
                      ⚠
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div class="row">
        <button type="button" class="btn small" data-action="add-logfile" disabled={readOnly.value || full} onClick={add}>
          {t.file.add()}
        </button>
        <button type="button" class="btn small" data-action="remove-logfile" disabled={readOnly.value || !file} onClick={() => void remove(index)}>
          {t.file.remove()}
        </button>
        {full && (
          <span class="hint" data-max>
            {errorText('too_many', { max: MAX_LOG_FILES })}
          </span>
        )}
      </div>
      {file && settings && <Settings index={index} file={file} />}
    </section>
  );
}
