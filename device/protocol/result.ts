// Results of the protocol codecs. Decoders of anything that came over a wire never throw: they
// answer `{ ok: false, error }` with a stable `code` that links, simulators and statistics can
// count and switch on. Encoders are called with values the program chose, so they throw a
// RangeError on a value the protocol cannot carry (a caller bug, not line noise).

/** A decode failure: `code` is a stable key (e.g. `bcc`, `bad_length`), `message` English text. */
export interface ProtocolError {
  code: string;
  message: string;
}

export type Result<T, E extends ProtocolError = ProtocolError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export function fail<E extends ProtocolError = ProtocolError>(code: string, message: string, extra?: Omit<E, 'code' | 'message'>): { ok: false; error: E } {
  return { ok: false, error: { code, message, ...extra } as E };
}

/** Throws the RangeError encoders use for values the protocol cannot carry. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new RangeError(message);
}

export const isInt = (n: number, min: number, max: number): boolean => Number.isInteger(n) && n >= min && n <= max;
