// The firmware file rules the page and the daemon share (spec §5: a .zip and an .md5 together;
// wrong type, name or size rejected; missing files reported) and the .md5 file's format.
import { describe, expect, it } from 'vitest';
import { checkUpdateFiles, FIRMWARE_MAX, MD5_FILE_MAX, parseMd5File } from './firmware.ts';

const f = (name: string, size = 10) => ({ name, size });

describe('checkUpdateFiles', () => {
  it('accepts a package with its .md5 named after it', () => {
    expect(checkUpdateFiles(f('fw-1.5.1.zip'), f('fw-1.5.1.md5'))).toBeUndefined();
    expect(checkUpdateFiles(f('fw.zip'), f('fw.zip.md5'))).toBeUndefined();
  });

  it('reports missing files, wrong types, wrong names and sizes', () => {
    expect(checkUpdateFiles(f('fw.zip'), undefined)).toEqual({ reason: 'missing_files' });
    expect(checkUpdateFiles(undefined, f('fw.md5'))).toEqual({ reason: 'missing_files' });
    expect(checkUpdateFiles(f('fw.tar'), f('fw.md5'))).toEqual({ reason: 'file_type' });
    expect(checkUpdateFiles(f('fw.zip'), f('fw.txt'))).toEqual({ reason: 'file_type' });
    expect(checkUpdateFiles(f('fw.zip'), f('other.md5'))).toEqual({ reason: 'file_name' });
    expect(checkUpdateFiles(f('my fw.zip'), f('my fw.md5'))).toEqual({ reason: 'file_name' });
    expect(checkUpdateFiles(f('../fw.zip'), f('../fw.md5'))).toEqual({ reason: 'file_name' });
    expect(checkUpdateFiles(f('fw.zip', FIRMWARE_MAX + 1), f('fw.md5'))).toEqual({ reason: 'too_large', params: { max: FIRMWARE_MAX } });
    expect(checkUpdateFiles(f('fw.zip'), f('fw.md5', MD5_FILE_MAX + 1))).toEqual({ reason: 'too_large', params: { max: MD5_FILE_MAX } });
  });
});

describe('parseMd5File', () => {
  it('reads the digest alone or with a file name, in either case', () => {
    const hex = '0123456789abcdef0123456789ABCDEF';
    expect(parseMd5File(hex)).toBe(hex.toLowerCase());
    expect(parseMd5File(`${hex}  fw.zip\n`)).toBe(hex.toLowerCase());
    expect(parseMd5File(`${hex} *fw.zip`)).toBe(hex.toLowerCase());
  });

  it('refuses what holds no digest', () => {
    expect(parseMd5File('')).toBeUndefined();
    expect(parseMd5File('0123')).toBeUndefined();
    expect(parseMd5File('g123456789abcdef0123456789abcdef')).toBeUndefined();
  });
});
