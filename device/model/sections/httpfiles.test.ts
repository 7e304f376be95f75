import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRejected } from '../testing.ts';
import { restHttpFiles } from './httpfiles.ts';

describe('restHttpFiles', () => {
  it('defaults to no files', () => {
    expect(defaultsOf(restHttpFiles)).toEqual({ files: [] });
    expectAccepted(restHttpFiles, () => {});
  });

  it('names: letters, digits, underscore, dot, hyphen; at most 64', () => {
    expectAccepted(restHttpFiles, (x) => (x.files = [{ name: 'index.html', size: 1200 }, { name: 'app-1.2_min.js', size: 0 }, { name: '404.html' }]));
    expectMaxLength(restHttpFiles, (x, s) => (x.files = [{ name: s, size: 1 }]), 'files.0.name', 64);
    for (const bad of ['a b.html', '../x', '.', '..', '.htaccess', 'a/b', 'ä.html'])
      expectRejected(restHttpFiles, (x) => (x.files = [{ name: bad, size: 1 }]), 'files.0.name', 'invalid_file_name');
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: '', size: 1 }]), 'files.0.name', 'required');
    expectRejected(restHttpFiles, (x) => (x.files = [{ size: 1 }]), 'files.0.name', 'required');
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: 7 }]), 'files.0.name', 'type', { expected: 'string' });
  });

  it('sizes are whole bytes, not negative', () => {
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: 'a', size: -1 }]), 'files.0.size', 'out_of_range', { min: 0 });
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: 'a', size: 1.5 }]), 'files.0.size', 'not_integer');
  });

  it('at most 256 entries, each name once', () => {
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}.html`, size: i }));
    expectAccepted(restHttpFiles, (x) => (x.files = files(256)));
    expectRejected(restHttpFiles, (x) => (x.files = files(257)), 'files', 'too_many', { max: 256 });
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: 'a.js' }, { name: 'a.js' }]), 'files.1.name', 'duplicate');
    expectRejected(restHttpFiles, (x) => (x.files = [{ name: 'a.js', mtime: 1 }]), 'files.0.mtime', 'unknown_key');
  });
});
