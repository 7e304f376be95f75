// One form field bound to a section's temporary copy. Kind, range, length limit, choices and
// default come from the section's schema; label, help and messages from the dictionary; the
// message shown is the one the daemon would give for the same value (same schema, same code).
import { computed, type ReadonlySignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { GenericSchema } from 'valibot';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { sectionByKey } from '../../device/model/index.ts';
import { metaAt } from '../../device/model/introspect.ts';
import type { IssueParams } from '../../device/model/issues.ts';
import { isSecretPath } from '../../device/model/secrets.ts';
import type { ClientCode } from '../api/client.ts';
import { fieldOptions, fieldText } from '../i18n/field-text.ts';
import { issueText } from '../i18n/issue-text.ts';
import { formatValue, LL } from '../i18n/translate.ts';
import { getPath } from '../state/equal.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';

export interface FieldProps {
  section: string;
  path: string;
  /** labels of the choices, by value (else the dictionary's `options`, else the value) */
  optionLabels?: Record<string, string>;
  /** a unit shown after the input, e.g. "s" */
  unit?: string;
}

const NUMBER_RE = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** A typed number becomes a number; anything else stays text so the schema reports it. */
export const parseNumber = (text: string): number | string => (NUMBER_RE.test(text.trim()) ? Number(text) : text);

export interface FieldViewProps extends FieldProps {
  /** the value shown */
  value: unknown;
  /** the problem of this field, if any (shown under it) */
  problem?: { code: ClientCode; params?: IssueParams } | undefined;
  onChange(value: unknown): void;
  /** a label other than the dictionary's (the wizard's own wording) */
  label?: string;
  /** no help and range line under the field (rows of a list show their own note) */
  bare?: boolean;
  /** offer only these of the schema's choices */
  options?: readonly (string | number)[];
  /** disabled besides the read-only role */
  disabled?: boolean;
  /** a help text other than the dictionary's entry for the path (a page with its own texts) */
  help?: string;
  /** the value is a secret (a password input); else a password field of the section is one */
  secret?: boolean;
  /**
   * the schema the path is in, for a list that is no configuration section (the register watch);
   * `section` then only names the field's id
   */
  schema?: GenericSchema;
  /** editable in the user role too (a list of the user's own) */
  editable?: boolean;
}

/**
 * A form field for a value of a section's schema, wherever the value is kept: `Field` binds it to
 * the section's temporary copy, the wizard to its own draft.
 */
export function FieldView(props: FieldViewProps) {
  const def = props.schema ? undefined : sectionByKey(props.section)!;
  const meta = metaAt(props.schema ?? def!.schema, props.path);
  const value = props.value;
  const id = `f-${props.section}-${props.path.replace(/\./g, '-')}`;
  const text = fieldText(props.section, props.path);
  const label = props.label ?? text.label;
  const help = props.bare ? undefined : (props.help ?? text.help);
  const problem = props.problem;
  const message = problem ? issueText(props.section, problem.code, problem.params) : '';
  const ro = (readOnly.value && !props.editable) || props.disabled === true;
  const set = props.onChange;
  const described = [problem ? `${id}-err` : '', help ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, disabled: ro, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described, name: props.path };
  const isSecret = props.secret ?? (def ? isSecretPath(def, undefined, props.path) : false);

  let input: preact.JSX.Element;
  if (meta.kind === 'boolean') {
    input = <input type="checkbox" {...common} checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />;
  } else if (meta.kind === 'choice') {
    const labels = props.optionLabels ?? fieldOptions(props.section, props.path);
    const options = props.options ?? meta.options ?? [];
    input = (
      <select
        {...common}
        value={String(value)}
        onChange={(e) => {
          const picked = options.find((o) => String(o) === e.currentTarget.value);
          set(picked ?? e.currentTarget.value);
        }}
      >
        {options.map((o) => (
          <option key={String(o)} value={String(o)}>
            {labels[String(o)] ?? String(o)}
          </option>
        ))}
      </select>
    );
  } else if (meta.kind === 'number') {
    input = (
      <input
        type="text"
        inputMode={meta.integer ? 'numeric' : 'decimal'}
        {...common}
        value={value === undefined ? '' : String(value)}
        onInput={(e) => set(parseNumber(e.currentTarget.value))}
      />
    );
  } else {
    const shown = typeof value === 'string' ? value : '';
    input = isSecret ? (
      <input
        type="password"
        {...common}
        value={shown}
        maxLength={meta.maxLength}
        autoComplete="new-password"
        onFocus={value === PASSWORD_MASK ? (e) => e.currentTarget.select() : undefined}
        onInput={(e) => set(e.currentTarget.value)}
      />
    ) : (
      <input
        type="text"
        {...common}
        value={shown}
        maxLength={meta.maxLength}
        autoComplete="off"
        spellcheck={false}
        onInput={(e) => set(e.currentTarget.value)}
      />
    );
  }
  const range =
    !props.bare && meta.kind === 'number' && meta.min !== undefined && meta.max !== undefined
      ? LL.value.form.range({ min: formatValue(meta.min), max: formatValue(meta.max) })
      : '';
  return (
    <div class={`field ${meta.kind === 'boolean' ? 'check' : ''} ${problem ? 'has-error' : ''}`} data-field={props.path}>
      <label for={id}>{label}</label>
      <div class="control">
        {input}
        {props.unit && <span class="unit">{props.unit}</span>}
      </div>
      {(help || range) && (
        <small id={`${id}-help`} class="hint">
          {[help, range].filter(Boolean).join(' · ')}
        </small>
      )}
      {problem && (
        <p id={`${id}-err`} class="error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** The first problem at exactly `path` among a section's own, cross-section and server issues. */
export function problemAt(key: string, path: string) {
  const s = section(key);
  return [...s.shownValidation.value.issues, ...s.serverIssues.value].find((i) => i.path === path);
}

/** What a field shows of a section's temporary copy: the value at its path, its problem, whether it is a secret. */
export interface FieldState {
  value: unknown;
  problem: ReturnType<typeof problemAt>;
  secret: boolean;
}

/**
 * A computed list that answers its last list while each item stays the same: whoever reads it
 * re-renders when one of its items changes, not whenever one of its sources does.
 */
function sameItems<T extends readonly unknown[]>(items: () => T): ReadonlySignal<T> {
  let last: T | undefined;
  return computed(() => {
    const now = items();
    if (last && last.length === now.length && now.every((v, i) => v === last![i])) return last;
    last = now;
    return now;
  });
}

/**
 * A field's state read through one computed signal that keeps its last answer while value, problem
 * and secrecy stay the same: the field re-renders when its own state changes, not on every edit of
 * its section (a key typed into one of /log's 700 points re-rendered every field of the page, some
 * 40, and again when the check caught up).
 */
export function useFieldState(key: string, path: string): FieldState {
  const [value, problem, secret] = useMemo(
    () =>
      sameItems(() => {
        const temp = section(key).temp.value;
        return [getPath(temp, path), problemAt(key, path), isSecretPath(sectionByKey(key)!, temp, path)] as const;
      }),
    [key, path],
  ).value;
  return { value, problem, secret };
}

/**
 * The values at `paths` of a section's temporary copy, read the same way: a part that shows a few of
 * a section's values (/log's register footprints) re-renders when one of them changes, not on every
 * edit of the section.
 */
export function useFieldValues(key: string, paths: readonly string[]): readonly unknown[] {
  const joined = paths.join('\n');
  return useMemo(
    () =>
      sameItems(() => {
        const temp = section(key).temp.value;
        return paths.map((p) => getPath(temp, p));
      }),
    // made again for other paths, compared by their text (`joined`): a list written in the render is a new array each time
    [key, joined],
  ).value;
}

export function Field(props: FieldProps) {
  const f = useFieldState(props.section, props.path);
  return <FieldView {...props} value={f.value} secret={f.secret} problem={f.problem} onChange={(v) => setField(props.section, props.path, v)} />;
}

/** A titled group of fields (spec §2 service layout: general, specific, certificates …). */
export function FieldGroup(props: { title: string; children: preact.ComponentChildren; id?: string }) {
  return (
    <section class="card group" aria-labelledby={props.id ?? undefined}>
      <h2 id={props.id}>{props.title}</h2>
      <div class="grid">{props.children}</div>
    </section>
  );
}
