import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRejected } from '../testing.ts';
import { logcfg } from './logcfg.ts';

describe('logcfg', () => {
  it('defaults to no files', () => {
    expect(defaultsOf(logcfg)).toEqual({ files: [] });
    expectAccepted(logcfg, () => {});
  });

  it('names follow the file-name rule, at most 30 characters (spec §5, §9)', () => {
    expectAccepted(logcfg, (x) => (x.files = ['log1.cfg', '_tank_2.cfg', 'A']));
    expectMaxLength(logcfg, (x, s) => (x.files = [s]), 'files.0', 30);
    for (const bad of ['1log.cfg', 'my log.cfg', 'a/b', '../etc', 'a-b']) expectRejected(logcfg, (x) => (x.files = [bad]), 'files.0', 'invalid_file_name');
    expectRejected(logcfg, (x) => (x.files = ['']), 'files.0', 'required');
    expectRejected(logcfg, (x) => (x.files = [5]), 'files.0', 'type', { expected: 'string' });
  });

  it('at most 100 entries, each once', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.cfg`);
    expectAccepted(logcfg, (x) => (x.files = names(100)));
    expectRejected(logcfg, (x) => (x.files = names(101)), 'files', 'too_many', { max: 100 });
    expectRejected(logcfg, (x) => (x.files = ['a.cfg', 'b.cfg', 'a.cfg']), 'files.2', 'duplicate');
  });
});
