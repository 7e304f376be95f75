// Script function (spec §3 "Script (pew_script)", §5 file names and .cfg extension, §9 FTP send).
import * as v from 'valibot';
import { bool, FILE_NAME_RE, int, obj, pattern, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection } from '../section.ts';

export const SCRIPT_EXTENSION = '.cfg'; // spec §5: script extension .cfg
export const DEFAULT_SCRIPT_FILE = 'pew_script.cfg'; // spec §7: download/pew_script.cfg
// extension given to a sent file (spec §4: "the local file is renamed"): file-name characters, no dot needed
const EXTENSION_RE = /^[A-Za-z0-9_.]+$/;

export const scriptSchema = obj({
  enable_script: bool(false),
  script_file: text(
    30,
    DEFAULT_SCRIPT_FILE,
    pattern(FILE_NAME_RE, 'invalid_file_name'), // spec §9: file name 30
    v.check((s: string) => s === '' || s.endsWith(SCRIPT_EXTENSION), msg('invalid_file_name')),
  ),
  ftp_transmission: bool(false), // send the script's output files with the FTP client
  transmission_btime: int(0, 86400, 0), // spec §9: maximum base time 86400 s (time of day the cycle starts from)
  ftp_send_cycle: int(60, 86400, 3600), // spec §9: cycle minimum 60 s; at most one day, like the base time
  ftp_repeats: int(0, 9, 3), // spec §9: retries 9
  file_ext_replacement: text(7, 'bak', pattern(EXTENSION_RE, 'invalid_characters')), // spec §9: extension replacement 7
});
export type Script = v.InferOutput<typeof scriptSchema>;

function rules(s: Script): Issue[] {
  const out: Issue[] = [];
  if (s.enable_script && s.script_file === '') out.push(issue('script_file', 'required'));
  if (s.ftp_transmission && s.file_ext_replacement === '') out.push(issue('file_ext_replacement', 'required'));
  return out;
}

export const pew_script = defineSection({
  key: 'pew_script',
  index: 11,
  schema: scriptSchema,
  passwords: [],
  rules,
});
