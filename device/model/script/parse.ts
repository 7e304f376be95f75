// The parser of the script language (language.ts; docs/script.md). Pure and total: any text gives
// a program and the list of its errors (line, column, code), never an exception, so the editor can
// parse on every key stroke and the daemon refuses a script with the same errors.
import { formatWall, WALL_DESIGNATORS } from '../../logger/csv-calendar.ts';
import {
  APPEND_MAX,
  CYCLE_MAX,
  CYCLE_MIN,
  FILE_NAME_MAX,
  FLAG_WORD_MAX,
  LINES_MAX,
  NAME_MAX,
  type Operand,
  type ParseResult,
  READ_ONLY_AREAS,
  SCRIPT_AREA_MAX,
  SCRIPT_AREAS,
  SCRIPT_TYPES,
  type ScriptArea,
  type ScriptError,
  type ScriptErrorCode,
  type ScriptType,
  type Section,
  type SectionHead,
  type Statement,
  TYPE_RANGE,
  TYPE_WORDS,
  VARIABLES_MAX,
  type Value,
} from './language.ts';

interface Token {
  text: string;
  /** 1-based column */
  col: number;
}

class LineError {
  constructor(
    readonly column: number,
    readonly code: ScriptErrorCode,
    readonly params?: Record<string, string | number>,
  ) {}
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_]*$/;
// a file name may hold the data logger's date and time placeholders (formatWall: %Y %y %m %d %H %M
// %S %W), filled in with the time of each line; `%%` would put a `%` into the name and is refused
const FILE_PLACEHOLDERS = WALL_DESIGNATORS.replace('%', '');
const FILE_RE = new RegExp(`^[A-Za-z](?:[A-Za-z0-9_-]|%[${FILE_PLACEHOLDERS}])*\\.[cC][sS][vV]$`);
/** a time whose every placeholder takes its full width, for the length of a file name as written */
const SOME_TIME = { year: 2026, month: 11, day: 21, hour: 9, minute: 1, second: 0 };
const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const INTEGER_RE = /^\d{1,7}$/;
const FLAG_RE = /^R(\d{0,3})([0-9A-F])$/;

/** Words, '=' and ',' of a line with their columns. */
function tokens(line: string): Token[] {
  const out: Token[] = [];
  const re = /[=,]|[^\s=,]+/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) out.push({ text: m[0], col: m.index + 1 });
  return out;
}

/** Reads the tokens of one statement from left to right; every miss is a LineError. */
class Cursor {
  private i = 0;
  constructor(
    private readonly t: Token[],
    private readonly end: number,
  ) {}

  /** the next token, or a syntax error at the line's end */
  next(): Token {
    const tok = this.t[this.i];
    if (!tok) throw new LineError(this.end, 'syntax');
    this.i++;
    return tok;
  }

  peek(): Token | undefined {
    return this.t[this.i];
  }

  expect(text: string): void {
    const tok = this.t[this.i];
    if (!tok || tok.text !== text) throw new LineError(tok?.col ?? this.end, 'syntax', { expected: text });
    this.i++;
  }

  done(): void {
    const tok = this.t[this.i];
    if (tok) throw new LineError(tok.col, 'syntax', { extra: tok.text });
  }
}

function name(tok: Token): string {
  if (!NAME_RE.test(tok.text) || tok.text.length > NAME_MAX) throw new LineError(tok.col, 'bad_name', { name: tok.text, max: NAME_MAX });
  return tok.text;
}

function area(tok: Token): ScriptArea {
  const a = tok.text.toUpperCase() as ScriptArea;
  if (!SCRIPT_AREAS.includes(a)) throw new LineError(tok.col, 'bad_area', { area: tok.text, allowed: SCRIPT_AREAS.join(', ') });
  return a;
}

function address(tok: Token, a: ScriptArea): number {
  const max = SCRIPT_AREA_MAX[a];
  if (!INTEGER_RE.test(tok.text) || Number(tok.text) > max) throw new LineError(tok.col, 'bad_address', { area: a, max });
  return Number(tok.text);
}

function type(c: Cursor): ScriptType | undefined {
  const tok = c.peek();
  if (!tok) return undefined;
  c.next();
  const t = tok.text.toUpperCase() as ScriptType;
  if (!SCRIPT_TYPES.includes(t)) throw new LineError(tok.col, 'bad_type', { type: tok.text, allowed: SCRIPT_TYPES.join(', ') });
  return t;
}

/** AREA ADDRESS, the address checked against the area and the address's last word. */
function place(c: Cursor): { area: ScriptArea; address: number; col: number } {
  const at = c.next();
  const a = area(at);
  return { area: a, address: address(c.next(), a), col: at.col };
}

interface Pending {
  st: Statement;
  /** a write without its own type takes the type of its name */
  typed: boolean;
  col: number;
  valueCol: number;
  nameCols: number[];
}

function statement(line: number, t: Token[], end: number): Pending {
  const c = new Cursor(t, end);
  const head = c.next();
  switch (head.text.toLowerCase()) {
    case 'read': {
      const n = name(c.next());
      c.expect('=');
      const p = place(c);
      const ty = type(c) ?? 'INT';
      c.done();
      checkFits(p, ty, p.col);
      return { st: { op: 'read', line, name: n, area: p.area, address: p.address, type: ty }, typed: true, col: head.col, valueCol: 0, nameCols: [] };
    }
    case 'write': {
      const p = place(c);
      if (READ_ONLY_AREAS.includes(p.area)) throw new LineError(p.col, 'read_only_area', { area: p.area });
      c.expect('=');
      const vt = c.next();
      let value: Value;
      if (NUMBER_RE.test(vt.text) && Number.isFinite(Number(vt.text))) value = { kind: 'number', value: Number(vt.text) };
      else if (NAME_RE.test(vt.text)) value = { kind: 'name', name: name(vt) };
      else throw new LineError(vt.col, 'bad_value', { value: vt.text });
      const ty = type(c);
      c.done();
      checkFits(p, ty ?? 'INT', p.col);
      return {
        st: { op: 'write', line, area: p.area, address: p.address, type: ty ?? 'INT', value },
        typed: ty !== undefined,
        col: head.col,
        valueCol: vt.col,
        nameCols: value.kind === 'name' ? [vt.col] : [],
      };
    }
    case 'file': {
      const f = c.next();
      fileName(f);
      c.done();
      return { st: { op: 'file', line, name: f.text }, typed: true, col: head.col, valueCol: 0, nameCols: [] };
    }
    case 'append': {
      const names: string[] = [];
      const cols: number[] = [];
      for (;;) {
        const tok = c.next();
        names.push(name(tok));
        cols.push(tok.col);
        if (names.length > APPEND_MAX) throw new LineError(tok.col, 'too_many_values', { max: APPEND_MAX });
        if (!c.peek()) break;
        c.expect(',');
      }
      return { st: { op: 'append', line, names }, typed: true, col: head.col, valueCol: 0, nameCols: cols };
    }
    case 'send':
      c.done();
      return { st: { op: 'send', line }, typed: true, col: head.col, valueCol: 0, nameCols: [] };
    default:
      throw new LineError(head.col, 'unknown_statement', { word: head.text });
  }
}

/** NAME.csv, its placeholders known ones, at most FILE_NAME_MAX characters once they are filled in. */
function fileName(f: Token): void {
  for (const m of f.text.matchAll(/%(.?)/g))
    if (m[1] === '' || !FILE_PLACEHOLDERS.includes(m[1]!))
      throw new LineError(f.col + m.index, 'bad_file_placeholder', { placeholder: m[0], allowed: [...FILE_PLACEHOLDERS].map((d) => `%${d}`).join(' ') });
  if (!FILE_RE.test(f.text) || formatWall(f.text, SOME_TIME).length > FILE_NAME_MAX)
    throw new LineError(f.col, 'bad_file_name', { name: f.text, max: FILE_NAME_MAX });
}

/** A value of `type` at `address` must end inside the area. */
function checkFits(p: { area: ScriptArea; address: number }, ty: ScriptType, col: number): void {
  const words = TYPE_WORDS[ty];
  const max = SCRIPT_AREA_MAX[p.area];
  if (p.address + words - 1 > max) throw new LineError(col, 'bad_address', { area: p.area, max });
}

function sectionHead(raw: string): SectionHead {
  const open = raw.indexOf('[');
  const close = raw.indexOf(']');
  const col = open + 1;
  if (close < 0) throw new LineError(raw.length + 1, 'syntax', { expected: ']' });
  const after = tokens(raw.slice(close + 1))[0];
  if (after) throw new LineError(close + 1 + after.col, 'syntax', { extra: after.text });
  const inner = tokens(raw.slice(open + 1, close)).map((x) => ({ text: x.text, col: x.col + open + 1 }));
  const [kind, arg, extra] = inner;
  if (!kind) throw new LineError(col, 'unknown_section', { section: '' });
  if (extra) throw new LineError(extra.col, 'syntax', { extra: extra.text });
  switch (kind.text.toLowerCase()) {
    case 'init':
      if (arg) throw new LineError(arg.col, 'syntax', { extra: arg.text });
      return { kind: 'init' };
    case 'cycle': {
      if (!arg) throw new LineError(close + 1, 'cycle_range', { min: CYCLE_MIN, max: CYCLE_MAX });
      const n = /^\d{1,6}$/.test(arg.text) ? Number(arg.text) : NaN;
      if (!(n >= CYCLE_MIN && n <= CYCLE_MAX)) throw new LineError(arg.col, 'cycle_range', { min: CYCLE_MIN, max: CYCLE_MAX });
      return { kind: 'cycle', seconds: n };
    }
    case 'on': {
      const m = arg ? FLAG_RE.exec(arg.text.toUpperCase()) : null;
      if (!arg || !m) throw new LineError(arg?.col ?? close + 1, 'bad_flag', { flag: arg?.text ?? '' });
      const word = m[1] ? Number(m[1]) : 0;
      if (word > FLAG_WORD_MAX) throw new LineError(arg.col, 'bad_flag', { flag: arg.text });
      return { kind: 'on', flag: arg.text.toUpperCase(), word, bit: parseInt(m[2]!, 16) };
    }
    default:
      throw new LineError(kind.col, 'unknown_section', { section: kind.text });
  }
}

const sameHead = (a: SectionHead, b: SectionHead): boolean =>
  a.kind === b.kind &&
  (a.kind !== 'cycle' || a.seconds === (b as typeof a).seconds) &&
  (a.kind !== 'on' || (a.word === (b as typeof a).word && a.bit === (b as typeof a).bit));

/** Parses a script; see the file's head. */
export function parseScript(text: string): ParseResult {
  const errors: ScriptError[] = [];
  const sections: Section[] = [];
  const pending: { p: Pending; section: Section }[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  const fail = (line: number, e: LineError) => errors.push({ line, column: e.column, code: e.code, ...(e.params ? { params: e.params } : {}) });
  let current: Section | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (line > LINES_MAX) {
      fail(line, new LineError(1, 'too_many_lines', { max: LINES_MAX }));
      break;
    }
    try {
      if (trimmed.startsWith('[')) {
        const head = sectionHead(raw);
        const col = raw.indexOf('[') + 1;
        const section: Section = { ...head, line, statements: [] };
        const twin = sections.find((s) => sameHead(s, head));
        if (twin) throw new LineError(col, 'duplicate_section', { first: twin.line });
        sections.push(section);
        current = section;
        continue;
      }
      const p = statement(line, tokens(raw), raw.length + 1);
      if (!current) throw new LineError(p.col, 'outside_section');
      current.statements.push(p.st);
      pending.push({ p, section: current });
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      fail(line, e);
      // a statement in error still belongs to its section, so later lines are checked in it
    }
  }
  const names = resolveNames(pending, errors);
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { program: { sections, names }, errors };
}

/** Names: set by read statements (their type is the name's), used by write and append; the file statement append needs. */
function resolveNames(pending: { p: Pending }[], errors: ScriptError[]): string[] {
  const types = new Map<string, ScriptType>();
  for (const { p } of pending) {
    const st = p.st;
    if (st.op !== 'read' || types.has(st.name)) continue;
    if (types.size >= VARIABLES_MAX) {
      errors.push({ line: st.line, column: p.col, code: 'too_many_names', params: { max: VARIABLES_MAX } });
      continue;
    }
    types.set(st.name, st.type);
  }
  const hasFile = pending.some(({ p }) => p.st.op === 'file');
  for (const { p } of pending) {
    const st = p.st;
    if (st.op === 'write' && st.value.kind === 'name') {
      const ty = types.get(st.value.name);
      if (ty === undefined) errors.push({ line: st.line, column: p.valueCol, code: 'unknown_name', params: { name: st.value.name } });
      else if (!p.typed) {
        (st as Operand).type = ty;
        if (st.address + TYPE_WORDS[ty] - 1 > SCRIPT_AREA_MAX[st.area])
          errors.push({ line: st.line, column: p.col, code: 'bad_address', params: { area: st.area, max: SCRIPT_AREA_MAX[st.area] } });
      }
    }
    if (st.op === 'write' && st.value.kind === 'number') {
      const [min, max] = TYPE_RANGE[st.type];
      const v = st.value.value;
      const whole = st.type === 'REAL' || Number.isInteger(v);
      if (!whole || v < min || v > max) errors.push({ line: st.line, column: p.valueCol, code: 'value_range', params: { type: st.type, min, max } });
    }
    if (st.op === 'append') {
      st.names.forEach((n, k) => {
        if (!types.has(n)) errors.push({ line: st.line, column: p.nameCols[k]!, code: 'unknown_name', params: { name: n } });
      });
      if (!hasFile) errors.push({ line: st.line, column: p.col, code: 'no_file' });
    }
  }
  return [...types.keys()];
}
