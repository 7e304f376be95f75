import { describe, expect, it } from 'vitest';
import { certNameProblem } from './common.ts';
import { fileNameProblem, splitFileName } from './file-names.ts';
import { scriptNameProblem } from './uploads.ts';

describe('file name problems (spec §5, §9)', () => {
  it('splits at the last dot; a leading dot is no extension', () => {
    expect(splitFileName('line.v1.cfg')).toEqual(['line.v1', 'cfg']);
    expect(splitFileName('.cfg')).toEqual(['.cfg', '']);
    expect(splitFileName('noext')).toEqual(['noext', '']);
  });

  it('certificates: the name before the extension, then the extension of that kind', () => {
    const mqtt = ['ca', 'client', 'key'] as const;
    expect(certNameProblem('ca.txt', mqtt, false)).toEqual({ code: 'file_extension', params: { allowed: ['.crt', '.csr', '.pem'] } });
    expect(certNameProblem('foo.pem', mqtt, false)).toEqual({ code: 'file_base_name', params: { allowed: ['ca', 'client', 'key'] } });
    expect(certNameProblem('key.crt', mqtt, false)).toEqual({ code: 'file_extension', params: { allowed: ['.key', '.pem'] } });
    expect(certNameProblem('client.der', mqtt, false)).toEqual({ code: 'file_extension', params: { allowed: ['.crt', '.csr', '.pem'] } });
    expect(certNameProblem('client.der', mqtt, true)).toBeUndefined();
    expect(certNameProblem('key.pem', mqtt, false)).toBeUndefined();
  });

  it('scripts: the extension, the length (30), then the characters', () => {
    expect(scriptNameProblem('script.txt')).toEqual({ code: 'file_extension', params: { allowed: ['.cfg'] } });
    expect(scriptNameProblem(`${'a'.repeat(27)}.cfg`)).toEqual({ code: 'too_long', params: { max: 30 } });
    expect(scriptNameProblem(`${'a'.repeat(26)}.cfg`)).toBeUndefined();
    expect(scriptNameProblem('1a.cfg')).toEqual({ code: 'invalid_file_name' });
    expect(scriptNameProblem('a b.cfg')).toEqual({ code: 'invalid_file_name' });
  });

  it('a rule without extensions or names checks only what it has', () => {
    expect(fileNameProblem('anything', {})).toBeUndefined();
    expect(fileNameProblem('x'.repeat(5), { max: 4 })).toEqual({ code: 'too_long', params: { max: 4 } });
  });
});
