import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRejected } from '../testing.ts';
import { script_file } from './scriptfile.ts';

describe('script_file', () => {
  it('defaults to an empty script', () => {
    expect(defaultsOf(script_file)).toEqual({ content: '' });
    expectAccepted(script_file, () => {});
  });

  it('multi-line text with tabs, CRLF and non-ASCII is kept as is', () => {
    const text = 'IF %R10 THEN\r\n\tDT100 := 1; // Grüße\nEND_IF\n';
    expectAccepted(script_file, (x) => (x.content = text));
  });

  it('at most 60 KiB as sent, under the 64 KiB body limit (security.md VAL-1)', () => {
    expectMaxLength(script_file, (x, s) => (x.content = s), 'content', 61440);
    // a line feed travels as two bytes (\n), "ü" as two UTF-8 bytes
    for (const ch of ['\n', 'ü']) {
      expectAccepted(script_file, (x) => (x.content = ch.repeat(30720)));
      expectRejected(script_file, (x) => (x.content = ch.repeat(30721)), 'content', 'too_long', { max: 61440 });
    }
    expect(JSON.stringify({ content: '\n'.repeat(30720) }).length).toBeLessThan(64 * 1024);
  });

  it('other control characters are refused', () => {
    for (const bad of ['a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u000bb']) expectRejected(script_file, (x) => (x.content = bad), 'content', 'invalid_characters');
    expectRejected(script_file, (x) => (x.content = 5), 'content', 'type', { expected: 'string' });
    expectRejected(script_file, (x) => (x.name = 'a'), 'name', 'unknown_key');
  });
});
