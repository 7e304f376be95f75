// English: the texts of the script language (parser errors in the editor) and the script's live
// status on /script, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_scriptLang = {
  at: 'Line {line}, column {column}: {message}',
  problems: '{count} error{{s}} in the script: it cannot be saved or run until they are fixed.',
  noProblems: 'No errors in the script.',
  codes: {
    unknown_statement: '"{word}" is not a statement: use read, write, file, append or send.',
    outside_section: 'A statement must follow a section: [init], [cycle N] or [on FLAG].',
    unknown_section: '"{section}" is not a section: use [init], [cycle N] or [on FLAG].',
    duplicate_section: 'This section exists already (line {first}).',
    cycle_range: 'The cycle must be a whole number of seconds from {min} to {max}.',
    bad_flag: '"{flag}" is not a relay: write R, up to 3 digits and a hex digit (e.g. R10A).',
    bad_area: '"{area}" is not an area: use {allowed}.',
    bad_address: 'Invalid address: a whole number from 0 to {max} in {area}, the value inside the area.',
    read_only_area: 'The area {area} holds the PLC inputs: it cannot be written.',
    bad_type: '"{type}" is not a type: use {allowed}.',
    bad_name: '"{name}" is not a valid name: start with a letter, then letters, digits and underscores, at most {max} characters.',
    bad_value: '"{value}" is neither a number nor a name.',
    value_range: 'The value does not fit the type {type} ({min} – {max}, whole numbers unless REAL).',
    unknown_name: 'No read statement sets "{name}".',
    bad_file_name:
      '"{name}" is not a file name: a letter, then letters, digits, "_", "-" or date placeholders, ending in .csv, at most {max} characters with the date filled in.',
    bad_file_placeholder: '"{placeholder}" is not a date or time placeholder of a file name: use {allowed}.',
    no_file: 'append needs a file statement in the script first.',
    syntax: 'The statement is not complete or has a part too many: see the statements in the default script.',
    too_many_lines: 'The script is too long: at most {max} lines.',
    too_many_names: 'Too many names: at most {max}.',
    too_many_values: 'Too many values in one line: at most {max}.',
  },
  status: {
    title: 'Script status',
    off: 'The script is not enabled.',
    state: 'State',
    states: { off: 'off', running: 'running', refused: 'refused (errors in the script)', error: 'stopped (the file cannot be read)' },
    section: 'Section',
    lastRun: 'Last run',
    duration: 'Duration',
    never: 'not yet',
    runs: 'Runs',
    overruns: 'Overruns',
    lastError: 'Last error',
    none: 'none',
    line: 'line {line}',
  },
} satisfies BaseTranslation;

export default en_scriptLang;
