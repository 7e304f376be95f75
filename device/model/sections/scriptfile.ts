// The script text itself (spec §3 "script_file: content").
import * as v from 'valibot';
import { obj } from '../fields.ts';
import { msg } from '../issues.ts';
import { defineSection } from '../section.ts';

// security.md VAL-1: a JSON body is at most 64 KiB; 60 KiB of script leaves room for the envelope.
// Counted as the script travels (UTF-8, JSON escapes such as \n), so a text the schema accepts can be saved.
export const SCRIPT_MAX = 60 * 1024;
const utf8 = new TextEncoder();
const encodedSize = (s: string) => utf8.encode(JSON.stringify(s)).length - 2;
// multi-line text: tab, line feed and carriage return allowed, other control characters not
const SCRIPT_TEXT_RE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

export const scriptFileSchema = obj({
  content: v.optional(
    v.pipe(
      v.string(msg('type', { expected: 'string' })),
      v.maxLength<string, number, string>(SCRIPT_MAX, msg('too_long', { max: SCRIPT_MAX })),
      v.check((s: string) => encodedSize(s) <= SCRIPT_MAX, msg('too_long', { max: SCRIPT_MAX })),
      v.regex<string, string>(SCRIPT_TEXT_RE, msg('invalid_characters')),
    ),
    '',
  ),
});
export type ScriptFile = v.InferOutput<typeof scriptFileSchema>;

export const script_file = defineSection({
  key: 'script_file',
  index: 12,
  schema: scriptFileSchema,
  passwords: [],
});
