// Field builders: every section schema is made of these, so a limit, a default and the error
// code a violation reports are written once, in the schema (architecture: "one schema is the truth").
import * as v from 'valibot';
import { msg } from './issues.ts';

type Schema = v.GenericSchema;

// spec §5: unallowed TCP ports, listening range 1025-65535, non-TLS server port minimum 500
export const UNALLOWED_PORTS = [3000, 8000, 8080, 8081, 5900] as const;
export const PORT_MIN = 1025;
export const PORT_MAX = 65535;

export const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
// host name (RFC 1123 labels) or dotted quad; an optional :port is not part of a host field
const HOST_NAME_RE = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/**
 * A host name or an IPv4 address. A name whose last label is all digits is none (RFC 3696 §2: a
 * top-level domain is never all-numeric): it must be a valid address, so `999.1.1.1` is refused.
 */
export const HOST_RE = { test: (s: string): boolean => HOST_NAME_RE.test(s) && (!/(^|\.)\d+$/.test(s) || IPV4_RE.test(s)) };
// spec §5: file names: start with a letter or underscore, only letters, digits, underscore and dot
export const FILE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_.]*$/;
// spec §5: database names: letters, digits, underscore, dot, hyphen
export const DB_NAME_RE = /^[A-Za-z0-9_.-]+$/;
// spec §5: a name must start with a letter; we allow letters, digits, underscore, hyphen, dot, space after it
export const NAME_RE = /^[A-Za-z][A-Za-z0-9_.\- ]*$/;
// spec §5: bit address: up to 3 decimal digits plus one optional hex digit (e.g. 10, 10A, 999F)
export const BIT_ADDRESS_RE = /^\d{1,3}[0-9A-Fa-f]?$/;
// spec §5: e-mail addresses are enclosed in angle brackets; several are separated by commas
const ADDR = String.raw`<[A-Za-z0-9.!#$%&'*+/=?^_\x60{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+>`;
export const EMAIL_ONE_RE = new RegExp(`^\\s*${ADDR}\\s*$`);
export const EMAIL_LIST_RE = new RegExp(`^\\s*${ADDR}(\\s*,\\s*${ADDR})*\\s*$`);
// printable text without control characters (names, subjects, paths)
const PRINTABLE_RE = /^[^\u0000-\u001f\u007f]*$/;

/** Password placeholder (spec §9: "a row of asterisks"). */
export const PASSWORD_MASK = '********';

const range = (min: number, max: number) =>
  [
    v.minValue<number, number, string>(min, msg('out_of_range', { min, max })),
    v.maxValue<number, number, string>(max, msg('out_of_range', { min, max })),
  ] as const;

const number = () => v.number(msg('type', { expected: 'number' }));
const string = () => v.string(msg('type', { expected: 'string' }));

/** Whole number in [min, max]. */
export const int = (min: number, max: number, def: number) => v.optional(v.pipe(number(), v.integer(msg('not_integer')), ...range(min, max)), def);

/** Whole number in [min, max], or one extra special value (e.g. spec §9: offset disabled -32768). */
export const intOr = (min: number, max: number, special: number, def: number) =>
  v.optional(
    v.pipe(
      number(),
      v.integer(msg('not_integer')),
      v.check((n: number) => n === special || (n >= min && n <= max), msg('out_of_range', { min, max })),
    ),
    def,
  );

/** Decimal number in [min, max] (spec §9 poll-time variants like 0.2 and 0.5). */
export const num = (min: number, max: number, def: number) => v.optional(v.pipe(number(), ...range(min, max)), def);

export const bool = (def: boolean) => v.optional(v.boolean(msg('type', { expected: 'boolean' })), def);

/** One of a fixed list of values. */
export const choice = <const T extends readonly (string | number)[]>(options: T, def: T[number]) =>
  v.optional(v.picklist(options, msg('invalid_value', { allowed: options })), def);

type StringAction = v.PipeItem<string, string, v.BaseIssue<unknown>>;

/** Printable text of at most `max` characters, with extra checks. */
export const text = (max: number, def = '', ...checks: StringAction[]) =>
  v.optional(
    v.pipe(
      string(),
      v.maxLength<string, number, string>(max, msg('too_long', { max })),
      v.regex<string, string>(PRINTABLE_RE, msg('invalid_characters')),
      ...checks,
    ),
    def,
  );

/** Text that may be empty, or else must match `re` (reporting `code`). */
export const pattern = (re: RegExp, code: Parameters<typeof msg>[0]) => v.check((s: string) => s === '' || re.test(s), msg(code));

export const nonEmpty = () => v.nonEmpty(msg('required'));

/** A name that must start with a letter (spec §5). */
export const nameText = (max: number, def: string) =>
  text(
    max,
    def,
    v.check((s: string) => s === '' || /^[A-Za-z]/.test(s), msg('must_start_with_letter')),
    pattern(NAME_RE, 'invalid_characters'),
  );

export const ipText = (def = '') => text(15, def, pattern(IPV4_RE, 'invalid_ip'));
/** looks like an address (digits and dots) but is not a valid one */
const badAddress = (s: string) => /^[\d.]+$/.test(s) && !IPV4_RE.test(s);
export const hostText = (def = '') =>
  text(
    253,
    def,
    v.check((s: string) => !badAddress(s), msg('invalid_ip')),
    v.check((s: string) => s === '' || badAddress(s) || HOST_RE.test(s), msg('invalid_host')),
  );
export const fileNameText = (max: number, def = '') => text(max, def, pattern(FILE_NAME_RE, 'invalid_file_name'));
export const dbNameText = (max: number, def = '') => text(max, def, pattern(DB_NAME_RE, 'invalid_db_name'));
export const bitAddress = (def = '') => text(4, def, pattern(BIT_ADDRESS_RE, 'invalid_bit_address'));

/**
 * A TCP port the unit listens on: spec §5 range 1025-65535 (or `min`), never an unallowed port.
 * `extra` are single ports allowed below the minimum (spec §9: Modbus 502).
 */
export const listenPort = (def: number, min = PORT_MIN, extra: readonly number[] = []) =>
  v.optional(
    v.pipe(
      number(),
      v.integer(msg('not_integer')),
      v.check((n: number) => extra.includes(n) || (n >= min && n <= PORT_MAX), msg('out_of_range', { min, max: PORT_MAX })),
      v.check((n: number) => !(UNALLOWED_PORTS as readonly number[]).includes(n), msg('port_unallowed', { ports: UNALLOWED_PORTS })),
    ),
    def,
  );

/** A port of a remote peer: 1-65535, or 0 where the spec allows "autodetect". */
export const remotePort = (def: number, allowZero = false) => int(allowZero ? 0 : 1, PORT_MAX, def);

/** A stored secret of a service (not a user password): masked on read, kept when the mask comes back. */
export const secret = (max = 128) => text(max, '');

/** A list of at most `max` items. */
export const list = <T extends Schema>(item: T, max: number, def: v.InferOutput<T>[] = []) =>
  v.optional(v.pipe(v.array(item, msg('type', { expected: 'array' })), v.maxLength(max, msg('too_many', { max }))), () => structuredClone(def));

/** An object that refuses keys it does not know (security.md VAL-1). */
export const obj = <T extends v.ObjectEntries>(entries: T) => v.strictObject(entries, msg('type', { expected: 'object' }));

/** A whole number given as text (a query parameter), `def` when absent. */
export const intText = (min: number, max: number, def: number) =>
  v.optional(
    v.pipe(
      string(),
      v.regex<string, string>(/^\d{1,15}$/, msg('not_integer')),
      v.transform(Number),
      v.minValue(min, msg('out_of_range', { min, max })),
      v.maxValue(max, msg('out_of_range', { min, max })),
    ),
    String(def),
  );

/** An object field whose defaults come from its own entries. */
export const group = <T extends v.ObjectEntries>(entries: T) => {
  const schema = obj(entries);
  return v.optional(schema, () => v.getDefaults(schema) as v.InferInput<typeof schema>);
};

/** User and backup password policy (spec §5: 8-max chars, upper, lower, digit, special). */
export const PASSWORD_MIN = 8;
export function passwordProblems(pw: string, max: number): boolean {
  return !(
    pw.length >= PASSWORD_MIN &&
    pw.length <= max &&
    /[A-Z]/.test(pw) &&
    /[a-z]/.test(pw) &&
    /\d/.test(pw) &&
    /[^A-Za-z0-9]/.test(pw) &&
    PRINTABLE_RE.test(pw)
  );
}
export const policyPassword = (max: number) =>
  v.pipe(
    string(),
    v.check((s: string) => !passwordProblems(s, max), msg('password_policy', { min: PASSWORD_MIN, max })),
  );
