// The uploaded HTTP server files (spec §3 session level "the uploaded HTTP files list", §7 get_http_content).
import * as v from 'valibot';
import { int, list, obj, pattern, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection } from '../section.ts';

export const HTTP_NAME_MAX = 64;
export const HTTP_FILES_MAX = 256; // spec silent; a bound keeps the list finite (security.md VAL-1)
// letters, digits, underscore, dot, hyphen; no leading dot, so neither "..", "." nor hidden files
export const HTTP_FILE_RE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export const httpFileSchema = obj({
  name: text(HTTP_NAME_MAX, '', v.nonEmpty<string, string>(msg('required')), pattern(HTTP_FILE_RE, 'invalid_file_name')), // a missing name reports 'required'
  size: int(0, Number.MAX_SAFE_INTEGER, 0), // bytes
});
export type HttpFile = v.InferOutput<typeof httpFileSchema>;

export const httpFilesSchema = obj({ files: list(httpFileSchema, HTTP_FILES_MAX) });
export type HttpFiles = v.InferOutput<typeof httpFilesSchema>;

function rules(h: HttpFiles): Issue[] {
  const seen = new Set<string>();
  return h.files.flatMap((f, i) => {
    if (seen.has(f.name)) return [issue(`files.${i}.name`, 'duplicate')];
    seen.add(f.name);
    return [];
  });
}

export const restHttpFiles = defineSection({
  key: 'restHttpFiles',
  index: 17,
  schema: httpFilesSchema,
  passwords: [],
  rules,
});
