// A text the daemon sends for display as a code the console words in its language: the code, the
// values its text names (`args`), and the peer's or the system's own words (`words`), shown as they
// came. The status reasons (reasons.ts) and the connection tests' notes (servicetest.ts) are made so.
import * as v from 'valibot';

export const codedTextSchema = <const T extends readonly [string, ...string[]]>(codes: T) =>
  v.object({
    code: v.picklist(codes),
    /** the values the text names: a port, a count, an address, file names */
    args: v.optional(v.record(v.string(), v.union([v.string(), v.number()]))),
    /** the peer's or the system's own words, shown as they came */
    words: v.optional(v.string()),
  });

export interface CodedText<C extends string> {
  code: C;
  args?: Record<string, string | number>;
  words?: string;
}

export const codedText = <C extends string>(code: C, args?: Record<string, string | number>, words?: string): CodedText<C> => ({
  code,
  ...(args ? { args } : {}),
  ...(words !== undefined && words !== '' ? { words } : {}),
});
