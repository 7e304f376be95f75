// Text of any Unicode code points (the surrogate range left out, as a well-formed string has none
// alone), the same strings fast-check's `unit: 'binary'` makes. That unit builds its tables the
// first time a process uses it: 6-10 s in which the process does nothing else. An integration
// test's daemon shares the test's event loop, so those seconds outlast the daemon's 5 s keep-alive,
// and the test's next request met a connection the daemon was closing just then (ECONNRESET).
import fc from 'fast-check';

const SURROGATES = 0x800;
const codePoint = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map((n) => String.fromCodePoint(n >= 0xd800 ? n + SURROGATES : n));

/** Strings of up to `maxLength` code points of any plane. */
export const anyText = (maxLength: number): fc.Arbitrary<string> => fc.string({ unit: codePoint, maxLength });
