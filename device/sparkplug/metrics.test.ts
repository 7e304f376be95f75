import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { logFileSchema } from '../model/sections/logfile.ts';
import { changed, metricTable } from './metrics.ts';
import { DATATYPES } from './types.ts';

const file = (id: number, name: string, records: object[]) => v.parse(logFileSchema, { id, name, interface: 0, records });
const log = {
  log_def: [
    file(1, 'Tank', [
      { id: 1, name: 'Level', if: 0, type: 7, reg_addr: '100', dim: 'm', sparkplug_deadband: 0.5 },
      { id: 2, name: 'Pump', if: 0, area: 6, reg_addr: '10A', sparkplug_writable: true },
      { id: 3, name: 'Elsewhere', if: 4, reg_addr: '0' },
      { id: 4, name: 'level', if: 0, reg_addr: '200' },
    ]),
    file(2, 'Line', [
      { id: 7, name: 'Count', if: 0, type: 9, reg_addr: '300' },
      { id: 8, name: 'Far', if: 0, reg_addr: '999999' },
    ]),
  ],
};

describe('the metric table of the device', () => {
  it('names <log file>/<variable>, aliases 1.. in order, datatype, source, unit, writable, deadband, a stable key (payloads-alias-uniqueness, case-sensitivity-metric-names)', () => {
    const t = metricTable(log, { interface_plc: 0 });
    expect(t.metrics.map((m) => [m.key, m.name, m.alias, m.datatype, m.unit, m.writable, m.deadband])).toEqual([
      ['1/1', 'Tank/Level', 1, DATATYPES.Float, 'm', false, 0.5],
      ['1/2', 'Tank/Pump', 2, DATATYPES.Boolean, '', true, 0],
      ['2/7', 'Line/Count', 3, DATATYPES.Int64, '', false, 0],
    ]);
    expect(t.metrics[1]!.source).toMatchObject({ area: 'WR', word: 10, bit: 10, interfaceId: 0 });
    expect(t.skipped).toEqual([
      { key: '1/4', name: 'Tank/level', reason: 'duplicate' },
      { key: '2/8', name: 'Line/Far', reason: 'address_out_of_range' },
    ]);
    expect(t.byAlias.get(3)?.name).toBe('Line/Count');
    expect(t.byName.get('Tank/Pump')?.alias).toBe(2);
    expect(metricTable(log, { interface_plc: 4 }).metrics.map((m) => m.name)).toEqual(['Tank/Elsewhere']);
  });

  it('report by exception: numbers beyond the deadband, texts and booleans on any change, null and NaN always', () => {
    const f = { deadband: 0.5, datatype: DATATYPES.Float } as const;
    expect(changed(f, 1, 1.5)).toBe(false);
    expect(changed(f, 1, 1.6)).toBe(true);
    expect(changed(f, 1, 0.4)).toBe(true);
    expect(changed({ ...f, deadband: 0 }, 1, 1)).toBe(false);
    expect(changed({ ...f, deadband: 0 }, 1, 1.0000001)).toBe(true);
    expect(changed(f, null, 1)).toBe(true);
    expect(changed(f, 1, null)).toBe(true);
    expect(changed(f, null, null)).toBe(false);
    expect(changed(f, Number.NaN, Number.NaN)).toBe(false);
    expect(changed(f, Number.NaN, 1)).toBe(true);
    const i = { deadband: 10, datatype: DATATYPES.Int64 } as const;
    expect(changed(i, 2n ** 62n, 2n ** 62n + 10n)).toBe(false);
    expect(changed(i, 2n ** 62n, 2n ** 62n + 11n)).toBe(true);
    expect(changed({ ...i, deadband: 0 }, 2n ** 63n - 1n, 2n ** 63n - 2n)).toBe(true);
    expect(changed({ deadband: 10, datatype: DATATYPES.DateTime }, 1000n, 1001n)).toBe(true);
    expect(changed({ deadband: 0, datatype: DATATYPES.String }, 'a', 'a')).toBe(false);
    expect(changed({ deadband: 0, datatype: DATATYPES.Boolean }, true, false)).toBe(true);
  });
});
