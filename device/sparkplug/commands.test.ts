import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { encodeValue } from '../logger/values.ts';
import { logFileSchema } from '../model/sections/logfile.ts';
import { planWrite } from './commands.ts';
import { metricTable } from './metrics.ts';
import type { CommandMetric, RawValue } from './payload.ts';

const file = v.parse(logFileSchema, {
  id: 1,
  name: 'Tank',
  interface: 0,
  records: [
    { id: 1, name: 'Setpoint', if: 0, type: 0, reg_addr: '100', sparkplug_writable: true },
    { id: 2, name: 'Level', if: 0, type: 0, reg_addr: '101' },
    { id: 3, name: 'Pump', if: 0, area: 6, reg_addr: '10A', sparkplug_writable: true },
    { id: 4, name: 'Door', if: 0, area: 4, reg_addr: '3', sparkplug_writable: true },
    { id: 5, name: 'Scaled', if: 0, type: 0, reg_addr: '102', enable_scal: true, sparkplug_writable: true },
    { id: 6, name: 'Total', if: 0, type: 10, reg_addr: '110', sparkplug_writable: true },
    { id: 7, name: 'Recipe', if: 0, type: 13, str_len: 4, reg_addr: '120', sparkplug_writable: true },
  ],
});
const table = metricTable({ log_def: [file] }, { interface_plc: 0 });
const cmd = (target: { alias?: number; name?: string }, ...values: RawValue[]): CommandMetric => ({
  ...(target.alias !== undefined ? { alias: BigInt(target.alias) } : {}),
  ...(target.name !== undefined ? { name: target.name } : {}),
  isNull: false,
  values,
});

describe('DCMD writes: what reaches the PLC', () => {
  it('a writable metric by alias or by name: the words of its value at its address (operational-behavior-data-commands-dcmd-metric-name, -dcmd-metric-value)', () => {
    expect(planWrite(table, cmd({ alias: 1 }, { field: 'int_value', value: 0xfffffff6 }))).toMatchObject({
      ok: true,
      value: -10,
      write: { kind: 'words', area: 'DT', word: 100, words: [0xfff6] },
    });
    expect(planWrite(table, cmd({ name: 'Tank/Setpoint' }, { field: 'int_value', value: 5 }))).toMatchObject({ ok: true, write: { words: [5] } });
    expect(planWrite(table, cmd({ alias: 6 }, { field: 'long_value', value: 2n ** 64n - 1n }))).toMatchObject({
      ok: true,
      write: { kind: 'words', word: 110, words: encodeValue(10, 2n ** 64n - 1n, 'little') },
    });
    expect(planWrite(table, cmd({ alias: 7 }, { field: 'string_value', value: 'ab' }))).toMatchObject({ ok: true, write: { kind: 'words', word: 120 } });
  });

  it('a bit in R: a bit write at word × 16 + bit', () => {
    expect(planWrite(table, cmd({ alias: 3 }, { field: 'boolean_value', value: true }))).toMatchObject({
      ok: true,
      write: { kind: 'bit', area: 'R', index: 10 * 16 + 10, value: true },
    });
  });

  it('refused: unknown alias or name, read-only, an input, a scaled point, the wrong field, out of range, null, a text too long', () => {
    const reason = (c: CommandMetric) => {
      const p = planWrite(table, c);
      return p.ok ? 'written' : p.reason;
    };
    expect(reason(cmd({ alias: 99 }, { field: 'int_value', value: 1 }))).toBe('unknown_metric');
    expect(reason(cmd({ name: 'Tank/Nope' }, { field: 'int_value', value: 1 }))).toBe('unknown_metric');
    expect(reason(cmd({}, { field: 'int_value', value: 1 }))).toBe('unknown_metric');
    expect(reason(cmd({ alias: 2 }, { field: 'int_value', value: 1 }))).toBe('read_only');
    expect(reason(cmd({ alias: 4 }, { field: 'boolean_value', value: true }))).toBe('input');
    expect(reason(cmd({ alias: 5 }, { field: 'double_value', value: 1 }))).toBe('scaled');
    expect(reason(cmd({ alias: 1 }, { field: 'long_value', value: 1n }))).toBe('field');
    expect(reason(cmd({ alias: 1 }, { field: 'int_value', value: 70000 }))).toBe('range');
    expect(reason({ alias: 1n, isNull: true, values: [] })).toBe('null');
    expect(reason(cmd({ alias: 7 }, { field: 'string_value', value: 'too long' }))).toBe('range');
  });
});
