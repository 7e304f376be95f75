import { describe, expect, it } from 'vitest';
import { defaultsOf, validateSection, withDefaults } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_log } from './log.ts';

const points = (n: number, extra: object = {}) => Array.from({ length: n }, (_, j) => ({ id: j + 1, name: `p${j + 1}`, ...extra }));
// ids renumbered from 1 (spec §4), as the console keeps them
const file = (id: number, records: object[] = []) => ({ id, name: `log${id}`, records: records.map((r, j) => ({ ...r, id: j + 1, name: `p${j + 1}` })) });

describe('pew_log: settings', () => {
  it('defaults: logger off, no log files, one header line, comma and point, internal storage (spec §3, §9)', () => {
    const d = defaultsOf(pew_log);
    expect(d).toEqual({
      version: 1,
      enable_log: false,
      delete_old_files: false,
      header: 1,
      formatfile: '',
      midnight_to_daybefore: false,
      csv_separator: 'comma',
      dec_separator: 'point',
      storage: 0,
      plc_rtc_dt: false,
      enable_mem_ctrl: false,
      mem_write_stop: 380,
      mem_write_error: 381,
      mem_write_status: 382,
      mem_notify: 383,
      enable_plc_ctrl: false,
      plc_ctrl_wr: 384,
      log_def: [],
    });
    expectAccepted(pew_log, () => {});
    expectAccepted(pew_log, (x) => Object.assign(x, { enable_log: true, enable_mem_ctrl: true, enable_plc_ctrl: true }));
  });

  it('enumerations: header modes 0-4, separators, storage 0-2 (spec §3)', () => {
    expectAccepted(pew_log, (x) => Object.assign(x, { header: 0, csv_separator: 'tab', storage: 2 }));
    expectRejected(pew_log, (x) => (x.header = 5), 'header', 'invalid_value', { allowed: [0, 1, 2, 3, 4] });
    expectRejected(pew_log, (x) => (x.csv_separator = ','), 'csv_separator', 'invalid_value');
    expectRejected(pew_log, (x) => (x.storage = 3), 'storage', 'invalid_value', { allowed: [0, 1, 2] });
  });

  it('a decimal comma needs a separator other than comma', () => {
    expectRejected(pew_log, (x) => (x.dec_separator = 'comma'), 'dec_separator', 'invalid_value', { allowed: ['point'] });
    for (const sep of ['semicolon', 'slash', 'tab']) expectAccepted(pew_log, (x) => Object.assign(x, { csv_separator: sep, dec_separator: 'comma' }));
  });

  it('user-defined header needs a .cfg format file of at most 30 characters (spec §5, §9; mewtocol.md §9)', () => {
    expectRejected(pew_log, (x) => (x.header = 4), 'formatfile', 'required');
    expectAccepted(pew_log, (x) => Object.assign(x, { header: 4, formatfile: 'csv_format.cfg' }));
    expectAccepted(pew_log, (x) => (x.formatfile = `${'f'.repeat(26)}.cfg`));
    expectRejected(pew_log, (x) => (x.formatfile = `${'f'.repeat(27)}.cfg`), 'formatfile', 'too_long', { max: 30 });
    expectRejected(pew_log, (x) => (x.formatfile = 'format.txt'), 'formatfile', 'invalid_file_name');
    expectRejected(pew_log, (x) => (x.formatfile = 'my format.cfg'), 'formatfile', 'invalid_file_name');
  });

  it('control registers: one DT register each, inside the DT area, not shared', () => {
    for (const f of ['mem_write_stop', 'mem_write_error', 'mem_write_status', 'mem_notify', 'plc_ctrl_wr']) {
      expectAccepted(pew_log, (x) => (x[f] = f === 'plc_ctrl_wr' ? 999424 : 0));
      expectRejected(pew_log, (x) => (x[f] = 999425), f, 'address_out_of_range', { min: 0, max: 999424 });
    }
    expectRejected(pew_log, (x) => Object.assign(x, { enable_mem_ctrl: true, mem_notify: 380 }), 'mem_notify', 'addresses_overlap', {
      other: 'mem_write_stop',
    });
    expectRejected(pew_log, (x) => Object.assign(x, { enable_mem_ctrl: true, enable_plc_ctrl: true, plc_ctrl_wr: 382 }), 'plc_ctrl_wr', 'addresses_overlap', {
      other: 'mem_write_status',
    });
    expectAccepted(pew_log, (x) => Object.assign(x, { enable_mem_ctrl: false, enable_plc_ctrl: true, plc_ctrl_wr: 382 }));
  });

  it('reserves its registers only while logging: 4 for the write status, 1 for PLC control (spec §9)', () => {
    const d = defaultsOf(pew_log);
    expect(pew_log.registers!({ ...d, enable_mem_ctrl: true, enable_plc_ctrl: true })).toEqual([]);
    expect(pew_log.registers!({ ...d, enable_log: true })).toEqual([]);
    expect(pew_log.registers!({ ...d, enable_log: true, enable_mem_ctrl: true })).toEqual([
      { path: 'mem_write_stop', start: 380, length: 1 },
      { path: 'mem_write_error', start: 381, length: 1 },
      { path: 'mem_write_status', start: 382, length: 1 },
      { path: 'mem_notify', start: 383, length: 1 },
    ]);
    expect(pew_log.registers!({ ...d, enable_log: true, enable_plc_ctrl: true, plc_ctrl_wr: 500 })).toEqual([{ path: 'plc_ctrl_wr', start: 500, length: 1 }]);
  });

  it('version is a whole number 0-65535', () => {
    expectRange(pew_log, (x, n) => (x.version = n), 'version', 0, 65535);
  });
});

describe('pew_log: log files and limits', () => {
  it('at most 16 log files with unique ids and names (spec §9)', () => {
    expectAccepted(pew_log, (x) => (x.log_def = Array.from({ length: 16 }, (_, i) => file(i + 1))));
    expectRejected(pew_log, (x) => (x.log_def = Array.from({ length: 17 }, (_, i) => file(i + 1))), 'log_def', 'too_many', { max: 16 });
    expectRejected(pew_log, (x) => (x.log_def = [file(1), file(1)]), 'log_def.1.id', 'duplicate');
    expectRejected(pew_log, (x) => (x.log_def = [file(1), { ...file(2), name: 'log1' }]), 'log_def.1.name', 'duplicate');
  });

  it('at most 700 data points in total (spec §9)', () => {
    expectAccepted(pew_log, (x) => (x.log_def = [file(1, points(400)), file(2, points(300))]));
    expectRejected(pew_log, (x) => (x.log_def = [file(1, points(400)), file(2, points(300)), file(3, points(2))]), 'log_def.2.records.0', 'too_many', {
      max: 700,
    });
    expectRejected(pew_log, (x) => (x.log_def = [file(1, points(701))]), 'log_def.0.records', 'too_many', { max: 700 });
  });

  it('at most 60 STRING points (spec §9)', () => {
    const str = (n: number) => points(n, { type: 13 });
    expectAccepted(pew_log, (x) => (x.log_def = [file(1, str(30)), file(2, [...points(5), ...str(30)])]));
    expectRejected(pew_log, (x) => (x.log_def = [file(1, str(30)), file(2, [...points(5), ...str(31)])]), 'log_def.1.records.35', 'too_many', { max: 60 });
  });

  it('at most 400 difference points (spec §9)', () => {
    const diff = (n: number) => points(n, { format: 'difference' });
    expectAccepted(pew_log, (x) => (x.log_def = [file(1, diff(400)), file(2, points(10))]));
    expectRejected(pew_log, (x) => (x.log_def = [file(1, diff(399)), file(2, [...points(3), ...diff(2)])]), 'log_def.1.records.4', 'too_many', { max: 400 });
  });

  it('reports the interfaces of active log files and their data points while logging', () => {
    const log_def = [
      { ...file(1, [{ id: 1, name: 'p', if: 0 }]), interface: 5 },
      { ...file(2, points(1)), trigger: 0 },
    ];
    const parsed = (enable_log: boolean) => {
      const r = validateSection(pew_log, withDefaults(pew_log.schema, { enable_log, log_def }));
      if (!r.ok) throw new Error(JSON.stringify(r.issues));
      return r.value;
    };
    expect(pew_log.interfaces!(parsed(false))).toEqual([]);
    expect(pew_log.interfaces!(parsed(true))).toEqual([
      { path: 'log_def.0.interface', interfaceId: 5, purpose: 'logger' },
      { path: 'log_def.0.records.0.if', interfaceId: 0, purpose: 'logger' },
    ]);
  });
});
