// A pew_log field of the /log page: the shared FieldView (kind, limits and messages from the
// schema, the same check as the daemon) bound to the section's temporary copy, with its label,
// choices and help from the page's texts (the `log` dictionary); the help shows once, in the
// field's hint line.
import { FieldView, useFieldState } from '../forms/field.tsx';
import { KEY } from '../log/page-state.ts';
import { setField } from '../state/sections.ts';

export interface FieldTexts {
  label: () => string;
  help?: () => string;
  options?: Record<string, () => string>;
}

const labelsOf = (options: Record<string, () => string>) => Object.fromEntries(Object.entries(options).map(([k, fn]) => [k, fn()]));

/** `bare` leaves out the range line (a range too wide to tell anything, such as the scaling ends). */
export function LogField(props: { path: string; text: FieldTexts; unit?: string; optionLabels?: Record<string, string>; disabled?: boolean; bare?: boolean }) {
  // its own value, problem and secrecy only: an edit elsewhere in pew_log does not re-render it
  const f = useFieldState(KEY, props.path);
  const labels = props.optionLabels ?? (props.text.options ? labelsOf(props.text.options) : undefined);
  // the field shows this help in its own hint line (with the range), once
  return (
    <FieldView
      section={KEY}
      path={props.path}
      value={f.value}
      problem={f.problem}
      secret={f.secret}
      label={props.text.label()}
      onChange={(v) => setField(KEY, props.path, v)}
      optionLabels={labels}
      unit={props.unit}
      disabled={props.disabled}
      bare={props.bare}
      help={props.text.help?.() ?? ''}
    />
  );
}
