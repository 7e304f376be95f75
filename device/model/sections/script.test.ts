import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { pew_script } from './script.ts';

describe('pew_script', () => {
  it('defaults: off, pew_script.cfg, no FTP sending (spec §5, §7)', () => {
    expect(defaultsOf(pew_script)).toEqual({
      enable_script: false,
      script_file: 'pew_script.cfg',
      ftp_transmission: false,
      transmission_btime: 0,
      ftp_send_cycle: 3600,
      ftp_repeats: 3,
      file_ext_replacement: 'bak',
    });
    expectAccepted(pew_script, () => {});
    expectAccepted(pew_script, (x) => Object.assign(x, { enable_script: true, ftp_transmission: true }));
  });

  it('script file: file-name rule, .cfg extension, 30 characters (spec §5, §9)', () => {
    expectAccepted(pew_script, (x) => (x.script_file = `${'a'.repeat(26)}.cfg`));
    expectRejected(pew_script, (x) => (x.script_file = `${'a'.repeat(27)}.cfg`), 'script_file', 'too_long', { max: 30 });
    expectAccepted(pew_script, (x) => (x.script_file = '_my.script.cfg'));
    for (const bad of ['my script.cfg', '1run.cfg', 'run.txt', 'run.CFG', 'run-1.cfg', '../x.cfg'])
      expectRejected(pew_script, (x) => (x.script_file = bad), 'script_file', 'invalid_file_name');
    expectAccepted(pew_script, (x) => (x.script_file = ''));
    expectRejected(pew_script, (x) => Object.assign(x, { enable_script: true, script_file: '' }), 'script_file', 'required');
  });

  it('base time 0-86400 s, cycle 60-86400 s, retries 0-9 (spec §9 FTP send)', () => {
    expectRange(pew_script, (x, n) => (x.transmission_btime = n), 'transmission_btime', 0, 86400);
    expectRange(pew_script, (x, n) => (x.ftp_send_cycle = n), 'ftp_send_cycle', 60, 86400);
    expectRange(pew_script, (x, n) => (x.ftp_repeats = n), 'ftp_repeats', 0, 9);
  });

  it('extension replacement: at most 7 file-name characters, needed for FTP sending (spec §4, §9)', () => {
    expectMaxLength(pew_script, (x, s) => (x.file_ext_replacement = s), 'file_ext_replacement', 7);
    expectRejected(pew_script, (x) => (x.file_ext_replacement = 'a/b'), 'file_ext_replacement', 'invalid_characters');
    expectAccepted(pew_script, (x) => (x.file_ext_replacement = ''));
    expectRejected(pew_script, (x) => Object.assign(x, { ftp_transmission: true, file_ext_replacement: '' }), 'file_ext_replacement', 'required');
  });
});
