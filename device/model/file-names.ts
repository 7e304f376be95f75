// What is wrong with a file name (spec §5 file names, certificate names and extensions, script
// extension .cfg; §9 file name lengths), said precisely: the length, the extension (with the
// allowed ones), the name before the extension (with the allowed ones), or its characters. One
// message for all four left the technician guessing (a `ca.txt` is refused for its extension, a
// `foo.pem` for its name).
import * as v from 'valibot';
import { type ErrorCode, type IssueParams, msg } from './issues.ts';

export interface FileNameRule {
  /** the allowed extensions without the dot (`cfg`); any when left out */
  extensions?: readonly string[];
  /** the allowed names before the extension (`ca`, `key`); any when left out */
  bases?: readonly string[];
  max?: number;
  /** the characters the whole name must match */
  chars?: RegExp;
}

export interface FileNameProblem {
  code: ErrorCode;
  params?: IssueParams;
}

/** `ca.pem` → ['ca', 'pem']; a name without a dot (or only a leading one) has no extension. */
export function splitFileName(name: string): [base: string, ext: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [name, ''];
}

/** The first problem of `name` under `rule`: length, then base name, extension, characters. */
export function fileNameProblem(name: string, rule: FileNameRule): FileNameProblem | undefined {
  if (rule.max !== undefined && name.length > rule.max) return { code: 'too_long', params: { max: rule.max } };
  const [base, ext] = splitFileName(name);
  if (rule.bases && !rule.bases.includes(base)) return { code: 'file_base_name', params: { allowed: rule.bases } };
  if (rule.extensions && !rule.extensions.includes(ext)) return { code: 'file_extension', params: { allowed: rule.extensions.map((e) => `.${e}`) } };
  if (rule.chars && !rule.chars.test(name)) return { code: 'invalid_file_name' };
  return undefined;
}

/** A valibot check reporting the problem `problemOf` finds in a non-empty text (empty passes). */
export const fileNameCheck = (problemOf: (name: string) => FileNameProblem | undefined) =>
  v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!dataset.typed || dataset.value === '') return;
    const p = problemOf(dataset.value);
    if (p) addIssue({ message: msg(p.code, p.params) });
  });
