// The list of log config files (spec §3 session level, §7 "the log config files list (response field files)").
import * as v from 'valibot';
import { FILE_NAME_RE, list, obj } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection } from '../section.ts';

export const LOGCFG_NAME_MAX = 30; // spec §9: file name 30
export const LOGCFG_FILES_MAX = 100; // spec silent; a bound keeps the list finite (security.md VAL-1)

const fileName = v.pipe(
  v.string(msg('type', { expected: 'string' })),
  v.nonEmpty(msg('required')),
  v.maxLength<string, number, string>(LOGCFG_NAME_MAX, msg('too_long', { max: LOGCFG_NAME_MAX })),
  v.regex<string, string>(FILE_NAME_RE, msg('invalid_file_name')), // spec §5 file names
);

export const logcfgSchema = obj({ files: list(fileName, LOGCFG_FILES_MAX) });
export type LogCfg = v.InferOutput<typeof logcfgSchema>;

function rules(c: LogCfg): Issue[] {
  return c.files.flatMap((f, i) => (c.files.indexOf(f) < i ? [issue(`files.${i}`, 'duplicate')] : []));
}

export const logcfg = defineSection({
  key: 'logcfg',
  index: 16,
  schema: logcfgSchema,
  passwords: [],
  rules,
});
