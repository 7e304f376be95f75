// The specified-time trigger's first record of the day (pew_log `time_start`): the model stores
// seconds after midnight (0 – 86399); the technician sees and enters a time of day in the
// browser's time input (HH:MM:SS, shown in the user's locale), with the field's label, help and
// the same problem text as every field.

import { problemAt } from '../forms/field.tsx';
import { issueText } from '../i18n/issue-text.ts';
import { clockSeconds, clockTime } from '../log/format.ts';
import { KEY } from '../log/page-state.ts';
import { getPath } from '../state/equal.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import type { FieldTexts } from './log-field.tsx';

export function TimeOfDayField(props: { path: string; text: FieldTexts }) {
  const value = getPath(section(KEY).temp.value, props.path);
  const id = `f-${KEY}-${props.path.replace(/\./g, '-')}`;
  const problem = problemAt(KEY, props.path);
  const help = props.text.help?.();
  const described = [problem ? `${id}-err` : '', help ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field ${problem ? 'has-error' : ''}`} data-field={props.path}>
      <label for={id}>{props.text.label()}</label>
      <div class="control">
        <input
          type="time"
          step={1}
          id={id}
          name={props.path}
          disabled={readOnly.value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          value={typeof value === 'number' ? clockTime(value) : ''}
          // an emptied input leaves no time: the text goes to the schema, which reports it
          onInput={(e) => setField(KEY, props.path, clockSeconds(e.currentTarget.value) ?? e.currentTarget.value)}
        />
      </div>
      {help && (
        <small id={`${id}-help`} class="hint">
          {help}
        </small>
      )}
      {problem && (
        <p id={`${id}-err`} class="error" role="alert">
          {issueText(KEY, problem.code, problem.params)}
        </p>
      )}
    </div>
  );
}
