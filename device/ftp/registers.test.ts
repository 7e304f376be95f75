// The FTP control block's status words (device/ftp/registers.ts; spec §9 FTP control register offset 6).
import { describe, expect, it } from 'vitest';
import { errorOf, FTP_ERROR, FTP_REGISTERS, REG, statusWords } from './registers.ts';

describe('FTP control block', () => {
  it('fills the six registers of spec §9: request, then five status words', () => {
    expect(FTP_REGISTERS).toBe(6);
    expect(Math.max(...Object.values(REG)) + 1).toBe(FTP_REGISTERS);
    expect(statusWords({ state: 'done', error: 'none', sent: 3, failed: 0, counter: 7 })).toEqual([2, 0, 3, 0, 7]);
    expect(statusWords({ state: 'error', error: 'auth_failed', sent: 0, failed: 70_000, counter: 65_537 })).toEqual([3, 5, 0, 65_535, 1]);
  });

  it('maps every failure reason of the connection classification to a code', () => {
    expect(errorOf('tls_untrusted')).toBe('tls');
    expect(errorOf('not_found')).toBe('server_refused');
    expect(errorOf('bad_reply')).toBe('other');
    expect(new Set(Object.values(FTP_ERROR)).size).toBe(Object.keys(FTP_ERROR).length);
  });
});
