// The daemon's Headers (the fetch classes of this folder stand in for node's built-in ones: see
// install.ts). Names are case-insensitive and kept in lower case; `get` joins repeated fields with
// ", "; iteration is sorted by name and gives each Set-Cookie on its own, as the Fetch standard
// says. A name that is not an HTTP token or a value with CR, LF or NUL is a TypeError, so no
// header can be split on the wire.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;
const EDGE_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const SET_COOKIE = 'set-cookie';

const fieldName = (name: string): string => {
  const n = String(name);
  if (!TOKEN.test(n)) throw new TypeError(`"${n}" is not a valid header name`);
  return n.toLowerCase();
};

const fieldValue = (value: string): string => {
  const v = String(value).replace(EDGE_SPACE, '');
  if (BAD_VALUE.test(v)) throw new TypeError(`a header value must not hold CR, LF or NUL: ${JSON.stringify(v)}`);
  return v;
};

export type HeadersSource = Headers | HeadersLike | Iterable<readonly [string, string]> | Record<string, string | readonly string[]>;

/** What the daemon's code and Hono use of a Headers, whichever class made it. */
export interface HeadersLike {
  get(name: string): string | null;
  forEach(fn: (value: string, name: string) => void): void;
}

export class DaemonHeaders {
  /** lower-case name → its values in the order they came */
  readonly #fields = new Map<string, string[]>();

  constructor(init?: HeadersSource | null) {
    if (init == null) return;
    if (init instanceof DaemonHeaders) {
      for (const [k, v] of init.#fields) this.#fields.set(k, [...v]);
    } else if (typeof (init as Headers).getSetCookie === 'function') {
      // another Headers: its iteration already gives each Set-Cookie alone
      for (const [k, v] of init as Headers) this.append(k, v);
    } else if (Symbol.iterator in (init as object)) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError('a header pair must have a name and a value');
        this.append(pair[0], pair[1]);
      }
    } else {
      for (const [k, v] of Object.entries(init as Record<string, string | readonly string[]>)) {
        if (Array.isArray(v)) for (const one of v) this.append(k, one);
        else this.append(k, v as string);
      }
    }
  }

  /** The fields of a node request (`rawHeaders`: name, value, name, value …), already checked by node's parser. */
  static ofRaw(raw: readonly string[]): DaemonHeaders {
    const h = new DaemonHeaders();
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i]!.toLowerCase();
      const have = h.#fields.get(k);
      if (have) have.push(raw[i + 1]!);
      else h.#fields.set(k, [raw[i + 1]!]);
    }
    return h;
  }

  append(name: string, value: string): void {
    const k = fieldName(name);
    const v = fieldValue(value);
    const have = this.#fields.get(k);
    if (have) have.push(v);
    else this.#fields.set(k, [v]);
  }

  set(name: string, value: string): void {
    this.#fields.set(fieldName(name), [fieldValue(value)]);
  }

  delete(name: string): void {
    this.#fields.delete(fieldName(name));
  }

  get(name: string): string | null {
    return this.#fields.get(fieldName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#fields.has(fieldName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#fields.get(SET_COOKIE) ?? [])];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const k of [...this.#fields.keys()].sort()) {
      const values = this.#fields.get(k);
      if (!values) continue;
      if (k === SET_COOKIE) for (const v of values) yield [k, v];
      else yield [k, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(fn: (value: string, name: string, parent: DaemonHeaders) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }

  /** The fields as node's `writeHead` takes them: Set-Cookie as a list, every other field joined. */
  toNode(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of this.#fields) out[k] = k === SET_COOKIE ? v : v.length === 1 ? v[0]! : v.join(', ');
    return out;
  }
}

/** The fields of any Headers (ours or node's built-in one) as node's `writeHead` takes them. */
export function nodeHeadersOf(h: DaemonHeaders | HeadersLike): Record<string, string | string[]> {
  if (h instanceof DaemonHeaders) return h.toNode();
  const out: Record<string, string | string[]> = {};
  h.forEach((v, k) => {
    if (k !== SET_COOKIE) out[k] = v;
  });
  const cookies = (h as Partial<Headers>).getSetCookie?.() ?? [];
  if (cookies.length) out[SET_COOKIE] = cookies;
  return out;
}
