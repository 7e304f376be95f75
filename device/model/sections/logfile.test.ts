import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { check, expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { pew_log } from './log.ts';
import { logFileSchema, recordSchema, typeWords } from './logfile.ts';

const F = 'log_def.0';
const R = `${F}.records.0`;
// the section's defaults with one log file holding one data point
const one = (x: any, file: object = {}, record: object = {}) => {
  x.log_def = [{ id: 1, name: 'tank', ...file, records: [{ id: 1, name: 'level', ...record }] }];
};

describe('pew_log: log file', () => {
  it('defaults: fixed cycle of 900 s, split per day, delay store 10, never delete (spec §9)', () => {
    expect(v.parse(logFileSchema, { name: 'a' })).toEqual({
      id: 1,
      name: 'a',
      interface: 4,
      trigger: 1,
      plc_addr: 0,
      split: 'day',
      cycle: 900,
      last_trig: 0,
      cond_trig: '',
      cond_end: '',
      enable_cond_store: false,
      cond_store: '',
      repeat_count: 0,
      time_start: 0,
      delay_store: 10,
      file_max: 0,
      records: [],
    });
    expectAccepted(pew_log, (x) => one(x));
  });

  it('name: required, file-name rule, at most 30 (spec §5, §9)', () => {
    expectMaxLength(pew_log, (x, s) => one(x, { name: s }), `${F}.name`, 30);
    expectRejected(pew_log, (x) => one(x, { name: '' }), `${F}.name`, 'required');
    expectRejected(pew_log, (x) => (x.log_def = [{ id: 1 }]), `${F}.name`, 'required');
    for (const bad of ['1tank', 'my tank', 'tank-2', 'tank/x']) expectRejected(pew_log, (x) => one(x, { name: bad }), `${F}.name`, 'invalid_file_name');
  });

  it('ranges: id 1-16, station 0-99, cycle 1-86500 s, logs 0-65535, cache 1-20, files 0-100, start time of day (spec §9)', () => {
    expectRange(pew_log, (x, n) => one(x, { id: n }), `${F}.id`, 1, 16);
    expectRange(pew_log, (x, n) => one(x, { plc_addr: n }), `${F}.plc_addr`, 0, 99);
    expectRange(pew_log, (x, n) => one(x, { cycle: n }), `${F}.cycle`, 1, 86500);
    expectRange(pew_log, (x, n) => one(x, { repeat_count: n }), `${F}.repeat_count`, 0, 65535);
    expectRange(pew_log, (x, n) => one(x, { delay_store: n }), `${F}.delay_store`, 1, 20);
    expectRange(pew_log, (x, n) => one(x, { file_max: n }), `${F}.file_max`, 0, 100);
    expectRange(pew_log, (x, n) => one(x, { time_start: n }), `${F}.time_start`, 0, 86399);
    expectRange(pew_log, (x, n) => one(x, { last_trig: n }), `${F}.last_trig`, 0, 0xffffffff);
  });

  it('enumerations: interfaces of spec §3, triggers 0-4, split units', () => {
    for (const id of [0, 3, 1, 4, 5]) expectAccepted(pew_log, (x) => one(x, { interface: id }));
    expectRejected(pew_log, (x) => one(x, { interface: 2 }), `${F}.interface`, 'invalid_value');
    expectAccepted(pew_log, (x) => one(x, { trigger: 0 }));
    expectRejected(pew_log, (x) => one(x, { trigger: 5 }), `${F}.trigger`, 'invalid_value', { allowed: [0, 1, 2, 3, 4] });
    for (const s of ['minute', 'hour', 'day', 'week', 'month', 'year']) expectAccepted(pew_log, (x) => one(x, { split: s }));
    expectRejected(pew_log, (x) => one(x, { split: 'second' }), `${F}.split`, 'invalid_value');
  });

  it('condition (3) and PLC flag (4) triggers need their flag; flags use the bit address form (spec §5)', () => {
    for (const trigger of [3, 4]) {
      expectRejected(pew_log, (x) => one(x, { trigger }), `${F}.cond_trig`, 'required');
      expectAccepted(pew_log, (x) => one(x, { trigger, cond_trig: '999F' }));
    }
    expectAccepted(pew_log, (x) => one(x, { trigger: 3, cond_trig: '0', cond_end: '10A' }));
    expectRejected(pew_log, (x) => one(x, { cond_trig: '1000A' }), `${F}.cond_trig`, 'too_long', { max: 4 });
    expectRejected(pew_log, (x) => one(x, { cond_end: '10G' }), `${F}.cond_end`, 'invalid_bit_address');
    expectRejected(pew_log, (x) => one(x, { enable_cond_store: true }), `${F}.cond_store`, 'required');
    expectAccepted(pew_log, (x) => one(x, { enable_cond_store: true, cond_store: '5' }));
  });
});

describe('pew_log: data point', () => {
  it('defaults: DT, int, momentary, little endian, no scaling, a string length of 48', () => {
    expect(v.parse(recordSchema, { name: 'a' })).toEqual({
      id: 1,
      name: 'a',
      dim: '',
      if: 4,
      plc_addr: 0,
      reg_addr: '0',
      area: 1,
      type: 0,
      str_len: 48,
      format: 'momentary',
      endian: 'little',
      decimal: 0,
      enable_scal: false,
      scal_plc_max: 100,
      scal_plc_min: 0,
      scal_log_max: 100,
      scal_log_min: 0,
      sparkplug_writable: false,
      sparkplug_deadband: 0,
    });
  });

  it('Sparkplug: read-only and any change reported by default, so points stored without the fields load unchanged', () => {
    const stored = { id: 3, name: 'level', type: 7, dim: 'm' };
    expect(v.parse(recordSchema, stored)).toMatchObject({ ...stored, sparkplug_writable: false, sparkplug_deadband: 0 });
    expect(v.parse(recordSchema, { name: 'a', sparkplug_writable: true, sparkplug_deadband: 0.5 })).toMatchObject({
      sparkplug_writable: true,
      sparkplug_deadband: 0.5,
    });
    for (const bad of [-0.1, '1', Number.NaN]) expect(v.safeParse(recordSchema, { name: 'a', sparkplug_deadband: bad }).success, String(bad)).toBe(false);
    expect(v.safeParse(recordSchema, { name: 'a', sparkplug_writable: 1 }).success).toBe(false);
  });

  it('str_len: n of STRING[n], 1-48 (spec §9 string 48); a stored point without it has 48', () => {
    expect(v.parse(recordSchema, { name: 'a', type: 13 }).str_len).toBe(48);
    expect(v.parse(recordSchema, { name: 'a', type: 13, str_len: 10 }).str_len).toBe(10);
    for (const bad of [0, 49, 1.5, '10']) expect(v.safeParse(recordSchema, { name: 'a', type: 13, str_len: bad }).success, String(bad)).toBe(false);
    // a STRING[10] takes 2 + 5 words, a STRING[9] too: its end is checked with them
    expect([typeWords(13, 10), typeWords(13, 9), typeWords(13, 1), typeWords(13)]).toEqual([7, 7, 3, 26]);
    const at = (reg_addr: string) => (x: any) => one(x, {}, { area: 2, type: 13, str_len: 10, reg_addr });
    expectAccepted(pew_log, at(String(32765 - 6)));
    expectRejected(pew_log, at(String(32765 - 5)), `${R}.reg_addr`, 'address_out_of_range', { max: 32759 });
  });

  it('name: required, starts with a letter, at most 70; unit at most 7 (spec §5, §9)', () => {
    expectMaxLength(pew_log, (x, s) => one(x, {}, { name: s }), `${R}.name`, 70);
    expectRejected(pew_log, (x) => one(x, {}, { name: '' }), `${R}.name`, 'required');
    // an empty name is one fault, said once: not also "must start with a letter"
    const r = check(pew_log, (x) => one(x, {}, { name: '' }));
    expect(r.ok ? [] : r.issues.filter((i) => i.path === `${R}.name`).map((i) => i.code)).toEqual(['required']);
    expectRejected(pew_log, (x) => one(x, {}, { name: '2nd' }), `${R}.name`, 'must_start_with_letter');
    expectRejected(pew_log, (x) => one(x, {}, { name: 'a;b' }), `${R}.name`, 'invalid_characters');
    expectMaxLength(pew_log, (x, s) => one(x, {}, { dim: s }), `${R}.dim`, 7, '³');
  });

  it('ranges: id 1-700, station 0-99; ids unique within a file', () => {
    expectRange(pew_log, (x, n) => one(x, {}, { id: n }), `${R}.id`, 1, 700);
    expectRange(pew_log, (x, n) => one(x, {}, { plc_addr: n }), `${R}.plc_addr`, 0, 99);
    const two = (x: any, id2: number) =>
      (x.log_def = [
        {
          id: 1,
          name: 'a',
          records: [
            { id: 1, name: 'p' },
            { id: id2, name: 'q' },
          ],
        },
      ]);
    expectRejected(pew_log, (x) => two(x, 1), `${F}.records.1.id`, 'duplicate');
    expectAccepted(pew_log, (x) => two(x, 2));
    expectAccepted(pew_log, (x) => (x.log_def = [1, 2].map((id) => ({ id, name: `f${id}`, records: [{ id: 1, name: 'p' }] }))));
  });

  it('enumerations: areas coded 1-6, types coded 0-15, value kinds, endianness (spec §3)', () => {
    expectRejected(pew_log, (x) => one(x, {}, { area: 0 }), `${R}.area`, 'invalid_value');
    expectRejected(pew_log, (x) => one(x, {}, { area: 7 }), `${R}.area`, 'invalid_value');
    expectRejected(pew_log, (x) => one(x, {}, { area: 'DT' }), `${R}.area`, 'invalid_value');
    expectAccepted(pew_log, (x) => one(x, {}, { type: 15 }));
    expectRejected(pew_log, (x) => one(x, {}, { type: 16 }), `${R}.type`, 'invalid_value');
    for (const f of ['momentary', 'difference', 'average']) expectAccepted(pew_log, (x) => one(x, {}, { format: f }));
    for (const e of ['little', 'big', 'middle', 'mixed']) expectAccepted(pew_log, (x) => one(x, {}, { endian: e }));
    expectRejected(pew_log, (x) => one(x, {}, { endian: 'native' }), `${R}.endian`, 'invalid_value');
  });

  it('register widths: 16-bit 1, 32-bit and DT 2, 64-bit 4, STRING 26', () => {
    expect([0, 1, 2, 3, 11].map(typeWords)).toEqual([1, 1, 1, 1, 1]);
    expect([4, 5, 6, 7, 8, 12].map(typeWords)).toEqual([2, 2, 2, 2, 2, 2]);
    expect([9, 10, 14, 15].map(typeWords)).toEqual([4, 4, 4, 4]);
    expect(typeWords(13)).toBe(26);
  });

  it('word areas: a decimal address; the whole value inside the area (spec §9)', () => {
    const at = (area: number, type: number, reg_addr: string) => (x: any) => one(x, {}, { area, type, reg_addr });
    for (const [area, max] of [
      [1, 999424],
      [2, 32765],
      [3, 16384],
    ] as const) {
      expectAccepted(pew_log, at(area, 0, String(max)));
      expectRejected(pew_log, at(area, 0, String(max + 1)), `${R}.reg_addr`, 'address_out_of_range', { min: 0, max });
    }
    expectAccepted(pew_log, at(1, 4, '999423'));
    expectRejected(pew_log, at(1, 4, '999424'), `${R}.reg_addr`, 'address_out_of_range', { min: 0, max: 999423 });
    expectAccepted(pew_log, at(2, 13, String(32765 - 25)));
    expectRejected(pew_log, at(2, 13, String(32765 - 24)), `${R}.reg_addr`, 'address_out_of_range', { max: 32740 });
    expectRejected(pew_log, at(1, 0, '10A'), `${R}.reg_addr`, 'invalid_characters');
    expectRejected(pew_log, at(1, 0, ''), `${R}.reg_addr`, 'required');
    expectRejected(pew_log, at(1, 0, '1000000'), `${R}.reg_addr`, 'too_long', { max: 6 });
  });

  it('bit areas X, Y, R: bit address of spec §5, word part inside the area', () => {
    const at = (area: number, reg_addr: string) => (x: any) => one(x, {}, { area, reg_addr });
    for (const ok of ['0', '0F', '10A', '512F']) expectAccepted(pew_log, at(4, ok));
    expectRejected(pew_log, at(4, '5130'), `${R}.reg_addr`, 'address_out_of_range', { min: 0, max: 512 });
    expectRejected(pew_log, at(5, '5130'), `${R}.reg_addr`, 'address_out_of_range', { min: 0, max: 512 });
    expectAccepted(pew_log, at(6, '999F'));
    for (const bad of ['F', 'G', '1G', 'A0', '12345']) expectRejected(pew_log, at(6, bad), `${R}.reg_addr`, 'invalid_bit_address');
  });

  it('decimals 0-9, 0-18 for 64-bit types (spec §9)', () => {
    expectRange(pew_log, (x, n) => one(x, {}, { type: 9, decimal: n }), `${R}.decimal`, 0, 18);
    for (const type of [10, 14, 15]) expectAccepted(pew_log, (x) => one(x, {}, { type, decimal: 18 }));
    expectAccepted(pew_log, (x) => one(x, {}, { type: 7, decimal: 9 }));
    expectRejected(pew_log, (x) => one(x, {}, { type: 7, decimal: 10 }), `${R}.decimal`, 'out_of_range', { min: 0, max: 9 });
  });

  it('text types are logged as they are (momentary only)', () => {
    for (const type of [11, 13])
      expectRejected(pew_log, (x) => one(x, {}, { type, format: 'difference' }), `${R}.format`, 'invalid_value', { allowed: ['momentary'] });
    expectAccepted(pew_log, (x) => one(x, {}, { type: 12, format: 'difference' }));
  });

  it('scaling needs PLC min below PLC max; the log range may be inverted', () => {
    const scal = (o: object) => (x: any) => one(x, {}, { enable_scal: true, ...o });
    expectAccepted(pew_log, scal({ scal_plc_min: 0, scal_plc_max: 27648, scal_log_min: 100, scal_log_max: -50.5 }));
    expectRejected(pew_log, scal({ scal_plc_min: 5, scal_plc_max: 5 }), `${R}.scal_plc_min`, 'start_after_end');
    expectAccepted(pew_log, (x) => one(x, {}, { scal_plc_min: 5, scal_plc_max: 5 }));
    expectRange(pew_log, (x, n) => one(x, {}, { scal_log_max: n }), `${R}.scal_log_max`, -1e300, 1e300, 1e300);
  });
});
