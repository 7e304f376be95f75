// Data logger settings (spec §3 "Data logger (pew_log)", §4, §5, §9 Logger); log files in logfile.ts.
import * as v from 'valibot';
import { controlRegister } from '../common.ts';
import { bool, choice, FILE_NAME_RE, int, list, obj, pattern, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection, type RegisterBlock } from '../section.ts';
import { type LogRecord, logFileRules, logFileSchema, MAX_LOG_FILES, MAX_POINTS, STRING_TYPE } from './logfile.ts';

export const MAX_STRING_POINTS = 60; // spec §9: data points STRING 60
export const MAX_DIFFERENCE_POINTS = 400; // spec §9: data points difference 400
export const HEADERS = [0, 1, 2, 3, 4] as const; // spec §3: none, 1, 2, 3 lines, user defined
export const USER_HEADER = 4;
export const CSV_SEPARATORS = ['comma', 'semicolon', 'slash', 'tab'] as const; // spec §3
export const DEC_SEPARATORS = ['point', 'comma'] as const; // spec §3
export const STORAGES = [0, 1, 2] as const; // spec §3: internal 0, USB 1, temp 2
// spec §9: log memory write 4 registers; defaults after NoSQL 370-379 (spec §9 default control registers)
export const MEM_REGISTERS = ['mem_write_stop', 'mem_write_error', 'mem_write_status', 'mem_notify'] as const;

export const logSchema = obj({
  version: int(0, 65535, 1), // format version of the stored settings
  enable_log: bool(false),
  delete_old_files: bool(false), // on low memory delete the oldest files instead of stopping (spec §4)
  header: choice(HEADERS, 1),
  formatfile: text(
    30,
    '',
    pattern(FILE_NAME_RE, 'invalid_file_name'), // the user-defined CSV format file (mewtocol.md §9)
    v.check((s: string) => s === '' || s.endsWith('.cfg'), msg('invalid_file_name')),
  ),
  midnight_to_daybefore: bool(false), // a record stamped 00:00:00 closes the previous day's file
  csv_separator: choice(CSV_SEPARATORS, 'comma'),
  dec_separator: choice(DEC_SEPARATORS, 'point'),
  storage: choice(STORAGES, 0),
  plc_rtc_dt: bool(false), // stamp records with the PLC clock instead of the unit's
  enable_mem_ctrl: bool(false), // report the write status to the PLC (spec §4: stop, error, low memory)
  mem_write_stop: controlRegister(380, 1),
  mem_write_error: controlRegister(381, 1),
  mem_write_status: controlRegister(382, 1),
  mem_notify: controlRegister(383, 1), // low memory
  enable_plc_ctrl: bool(false), // the PLC starts and stops logging
  plc_ctrl_wr: controlRegister(384, 1),
  log_def: list(logFileSchema, MAX_LOG_FILES), // spec §9: log files 16
});
export type Log = v.InferOutput<typeof logSchema>;

/** The control registers in use (the logger must be on). */
function registers(l: Log): RegisterBlock[] {
  if (!l.enable_log) return [];
  const paths = [...(l.enable_mem_ctrl ? MEM_REGISTERS : []), ...(l.enable_plc_ctrl ? (['plc_ctrl_wr'] as const) : [])];
  return paths.map((path) => ({ path, start: l[path], length: 1 }));
}

/** spec §9: at most 700 points, 60 STRING and 400 difference points; the first point past a limit is reported. */
function pointLimits(l: Log): Issue[] {
  const out: Issue[] = [];
  const limits: { max: number; counts: (r: LogRecord) => boolean }[] = [
    { max: MAX_POINTS, counts: () => true },
    { max: MAX_STRING_POINTS, counts: (r) => r.type === STRING_TYPE },
    { max: MAX_DIFFERENCE_POINTS, counts: (r) => r.format === 'difference' },
  ];
  for (const { max, counts } of limits) {
    let n = 0;
    search: for (const [i, f] of l.log_def.entries())
      for (const [j, r] of f.records.entries())
        if (counts(r) && ++n > max) {
          out.push(issue(`log_def.${i}.records.${j}`, 'too_many', { max }));
          break search;
        }
  }
  return out;
}

function rules(l: Log): Issue[] {
  const out: Issue[] = [];
  if (l.header === USER_HEADER && l.formatfile === '') out.push(issue('formatfile', 'required'));
  if (l.csv_separator === 'comma' && l.dec_separator === 'comma') out.push(issue('dec_separator', 'invalid_value', { allowed: ['point'] }));
  const used = registers({ ...l, enable_log: true });
  used.forEach((b, i) => {
    const other = used.slice(0, i).find((o) => o.start === b.start);
    if (other) out.push(issue(b.path, 'addresses_overlap', { other: other.path }));
  });
  const ids = new Set<number>();
  const names = new Set<string>();
  l.log_def.forEach((f, i) => {
    if (ids.has(f.id)) out.push(issue(`log_def.${i}.id`, 'duplicate'));
    if (names.has(f.name)) out.push(issue(`log_def.${i}.name`, 'duplicate'));
    ids.add(f.id);
    names.add(f.name);
    out.push(...logFileRules(f, `log_def.${i}`));
  });
  return [...out, ...pointLimits(l)];
}

export const pew_log = defineSection({
  key: 'pew_log',
  index: 13,
  schema: logSchema,
  passwords: [],
  rules,
  registers,
  // the interfaces of active log files and of their data points (spec §5 transparent-interface rule)
  interfaces: (l) =>
    !l.enable_log
      ? []
      : l.log_def.flatMap((f, i) =>
          f.trigger === 0
            ? []
            : [
                { path: `log_def.${i}.interface`, interfaceId: f.interface, purpose: 'logger' as const },
                ...f.records.map((r, j) => ({ path: `log_def.${i}.records.${j}.if`, interfaceId: r.if, purpose: 'logger' as const })),
              ],
        ),
});
