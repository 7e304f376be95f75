// /log CSV import and export of variables (spec §2 /log, §5 "Log CSV import", §8 "Import failed /
// success", "No valid entries in csv file found", "Failed to read file"). A chosen variable list is
// read in the browser and previewed with the options of spec §5 (the rows left out with their
// reason); Import appends its variables as data points of the selected log file. Export writes the
// selected log file's points as a list the import reads back.

import { batch } from '@preact/signals';
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ErrorCode } from '../../device/model/issues.ts';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { appendRecords } from '../log/edit.ts';
import { exportFileName, exportVariables } from '../log/export.ts';
import {
  COLUMN_OPTIONS,
  COLUMNS_MAX,
  HEADER_LINES_MAX,
  IMPORT_DEFAULTS,
  type ImportOptions,
  importedRecords,
  optionIssues,
  parseVariables,
  type SkippedRow,
} from '../log/import.ts';
import { fileIndex, logFiles, selectedPoint, setLogFiles } from '../log/page-state.ts';
import { notify } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';

const SHOWN_SKIPPED = 50; // rows listed in the preview; the count says how many more
const SEPARATOR_KEYS = { auto: 'auto', ';': 'semicolon', ',': 'comma', '\t': 'tab' } as const;
type Loaded = { name: string; text: string };

function reasonText(s: SkippedRow): string {
  const reasons = LL.value.logger.transfer.reasons as unknown as Record<string, ((p: { value: string }) => string) | undefined>;
  const own = reasons[s.reason];
  return own ? own({ value: s.value ?? '' }) : errorText(s.reason as ErrorCode, s.params);
}

/** A number input of the import options; the problem of spec §5 under it. */
function NumberOption(props: { id: keyof ImportOptions; label: string; value: number; min: number; max: number; problem?: string; onSet(n: number): void }) {
  const id = `log-import-${props.id}`;
  return (
    <div class={`field ${props.problem ? 'has-error' : ''}`} data-option={props.id}>
      <label for={id}>{props.label}</label>
      <div class="control">
        <input
          type="text"
          inputMode="numeric"
          id={id}
          value={Number.isNaN(props.value) ? '' : String(props.value)}
          disabled={readOnly.value}
          aria-invalid={props.problem ? true : undefined}
          onInput={(e) => props.onSet(e.currentTarget.value.trim() === '' ? Number.NaN : Number(e.currentTarget.value))}
        />
      </div>
      {props.problem ? (
        <p class="error" role="alert">
          {props.problem}
        </p>
      ) : (
        <small class="hint">{LL.value.form.range({ min: props.min, max: props.max })}</small>
      )}
    </div>
  );
}

export function LogTransfer() {
  const t = LL.value.logger.transfer;
  const files = logFiles();
  const index = fileIndex(files.length);
  const file = files[index];
  const [options, setOptions] = useState<ImportOptions>(IMPORT_DEFAULTS);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const issues = optionIssues(options);
  const problem = (field: keyof ImportOptions) => {
    const i = issues.find((x) => x.field === field);
    if (!i) return undefined;
    return i.code === 'filter_short' ? t.filterShort(i.params) : errorText(i.code, i.params);
  };
  const taken = useMemo(() => (file ? file.records.map((r) => String(r.name)) : []), [file]);
  const result = useMemo(
    () => (loaded && issues.length === 0 ? parseVariables(loaded.text, options, taken) : undefined),
    [loaded, options, taken, issues.length],
  );
  const set = <K extends keyof ImportOptions>(k: K, value: ImportOptions[K]) => setOptions({ ...options, [k]: value });

  async function choose(e: Event) {
    const f = (e.currentTarget as HTMLInputElement).files?.[0];
    if (!f) return setLoaded(null);
    try {
      setLoaded({ name: f.name, text: await f.text() });
    } catch {
      setLoaded(null);
      notify('error', t.readFailed()); // spec §8 "Failed to read file"
    }
  }

  function runImport() {
    const p = LL.value.logger.point;
    if (!file) return void notify('error', p.noLogFile()); // spec §8
    if (!result || result.variables.length === 0) return void notify('error', `${t.failed()} ${t.noValid()}`); // spec §8
    const r = appendRecords(files, index, importedRecords(result.variables, file));
    if (typeof r === 'string') return void notify('error', `${t.failed()} ${p.maxReached()}`);
    batch(() => {
      setLogFiles(r.files);
      selectedPoint.value = file.records.length;
    });
    notify(r.full ? 'warning' : 'info', `${t.success({ count: r.added, name: file.name })}${r.full ? ` ${p.maxReached()}` : ''}`);
    setLoaded(null);
    if (input.current) input.current.value = '';
  }

  function runExport() {
    if (!file) return;
    const url = URL.createObjectURL(new Blob([exportVariables(file.records)], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = exportFileName(file.name);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  const labels: Record<(typeof COLUMN_OPTIONS)[number], string> = {
    nameColumn: t.nameColumn(),
    addressColumn: t.addressColumn(),
    typeColumn: t.typeColumn(),
    commentColumn: t.commentColumn(),
  };
  const skipped = result?.skipped ?? [];
  return (
    <section class="card group" aria-labelledby="log-transfer" data-transfer>
      <h2 id="log-transfer">{LL.value.logger.titles.transfer()}</h2>
      <div class="grid">
        <div class="field" data-option="file">
          <label for="log-import-file">{t.file()}</label>
          <div class="control">
            <input
              type="file"
              id="log-import-file"
              ref={input}
              accept=".csv,.txt,text/csv,text/plain"
              disabled={readOnly.value}
              onChange={(e) => void choose(e)}
            />
          </div>
          <small class="hint">{t.fileHelp()}</small>
        </div>
        <div class={`field ${problem('filter') ? 'has-error' : ''}`} data-option="filter">
          <label for="log-import-filter">{t.filter()}</label>
          <div class="control">
            <input
              type="text"
              id="log-import-filter"
              value={options.filter}
              disabled={readOnly.value}
              autoComplete="off"
              spellcheck={false}
              aria-invalid={problem('filter') ? true : undefined}
              onInput={(e) => set('filter', e.currentTarget.value)}
            />
          </div>
          {problem('filter') ? (
            <p class="error" role="alert">
              {problem('filter')}
            </p>
          ) : (
            <small class="hint">{t.filterHelp()}</small>
          )}
        </div>
        <div class="field" data-option="separator">
          <label for="log-import-separator">{t.separator()}</label>
          <div class="control">
            <select
              id="log-import-separator"
              value={options.separator}
              disabled={readOnly.value}
              onChange={(e) => set('separator', e.currentTarget.value as ImportOptions['separator'])}
            >
              {(Object.keys(SEPARATOR_KEYS) as (keyof typeof SEPARATOR_KEYS)[]).map((s) => (
                <option key={s} value={s}>
                  {t.separators[SEPARATOR_KEYS[s]]()}
                </option>
              ))}
            </select>
          </div>
        </div>
        <NumberOption
          id="headerLines"
          label={t.headerLines()}
          value={options.headerLines}
          min={0}
          max={HEADER_LINES_MAX}
          problem={problem('headerLines')}
          onSet={(n) => set('headerLines', n)}
        />
        {COLUMN_OPTIONS.map((c) => (
          <NumberOption key={c} id={c} label={labels[c]} value={options[c]} min={1} max={COLUMNS_MAX} problem={problem(c)} onSet={(n) => set(c, n)} />
        ))}
      </div>
      {result && (
        <div class="import-preview" data-import-preview>
          <p data-found>{t.found({ count: result.variables.length, skipped: skipped.length, filtered: result.filtered })}</p>
          {result.variables.length === 0 && (
            <p class="error" data-no-valid>
              {t.noValid()}
            </p>
          )}
          {skipped.length > 0 && (
            <details data-skipped>
              <summary>{t.skippedTitle()}</summary>
              <ul>
                {skipped.slice(0, SHOWN_SKIPPED).map((s) => (
                  <li key={s.line} data-skipped-line={s.line}>
                    {labelled(`${t.line({ line: s.line })}${s.name ? ` · ${s.name}` : ''}`, reasonText(s))}
                  </li>
                ))}
              </ul>
              {skipped.length > SHOWN_SKIPPED && <p class="hint">{t.more({ count: skipped.length - SHOWN_SKIPPED })}</p>}
            </details>
          )}
        </div>
      )}
      <div class="row transfer-row">
        <button type="button" class="btn primary" data-action="import" disabled={readOnly.value || !loaded || issues.length > 0} onClick={runImport}>
          {file ? t.import({ name: file.name }) : t.importNoFile()}
        </button>
        <button type="button" class="btn" data-action="export" disabled={!file || file.records.length === 0} onClick={runExport}>
          {file ? t.export({ name: file.name }) : t.exportNoFile()}
        </button>
      </div>
      <p class="hint">{t.exportNote()}</p>
    </section>
  );
}
