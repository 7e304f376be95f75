import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection, unmaskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { dataPointSchema } from './datapoint.ts';
import { pew_sql } from './sql.ts';

const on = (x: any) => Object.assign(x, { enable_sql: true, server: 'db.local', instance_name: 'plant', tablename: 'line_1' });
const point = { ...(v.getDefaults(dataPointSchema) as object), name: 'temp' };

describe('pew_sql', () => {
  it('defaults: off, MS SQL on 1433, control register 350, encrypted, no data points (spec §9)', () => {
    const d = defaultsOf(pew_sql);
    expect(d).toMatchObject({ enable_sql: false, db_type: 0, port: 1433, plc_control_dt: 350, plc_poll: 1, timeout: 10 });
    expect(d).toMatchObject({ use_encryption: true, ca_verification: true, insertWithoutPLC: false, interface: 4, plc_addr: 0, datalist: [] });
    expectAccepted(pew_sql, () => {});
  });

  it('the 6-register control block is reserved only while enabled and must fit the DT area', () => {
    expect(pew_sql.registers!(defaultsOf(pew_sql))).toEqual([]);
    expect(pew_sql.registers!(on(defaultsOf(pew_sql)))).toEqual([{ path: 'plc_control_dt', start: 350, length: 6 }]);
    expectAccepted(pew_sql, (x) => (x.plc_control_dt = 999419));
    expectRejected(pew_sql, (x) => (x.plc_control_dt = 999420), 'plc_control_dt', 'address_out_of_range', { min: 0, max: 999419 });
  });

  it('poll 0.5-3600 s, timeout 3-120 s, port 1-65535, station 0-99 (spec §9)', () => {
    expectRange(pew_sql, (x, n) => (x.plc_poll = n), 'plc_poll', 0.5, 3600, 0.1);
    expectRange(pew_sql, (x, n) => (x.timeout = n), 'timeout', 3, 120);
    expectRange(pew_sql, (x, n) => (x.port = n), 'port', 1, 65535);
    expectRange(pew_sql, (x, n) => (x.plc_addr = n), 'plc_addr', 0, 99);
  });

  it('database types MS SQL 0, MySQL/MariaDB 1, PostgreSQL 2; interfaces of spec §3', () => {
    expectAccepted(pew_sql, (x) => Object.assign(on(x), { db_type: 2, port: 5432 }));
    expectRejected(pew_sql, (x) => (x.db_type = 3), 'db_type', 'invalid_value', { allowed: [0, 1, 2] });
    expectAccepted(pew_sql, (x) => (x.interface = 5));
    expectRejected(pew_sql, (x) => (x.interface = 2), 'interface', 'invalid_value', { allowed: [0, 3, 1, 4, 5] });
  });

  it('server and table required when enabled; database too except on MS SQL', () => {
    expectAccepted(pew_sql, on);
    for (const f of ['server', 'tablename']) expectRejected(pew_sql, (x) => Object.assign(on(x), { [f]: '' }), f, 'required');
    expectAccepted(pew_sql, (x) => Object.assign(on(x), { instance_name: '' }));
    expectRejected(pew_sql, (x) => Object.assign(on(x), { db_type: 1, instance_name: '' }), 'instance_name', 'required');
  });

  it('database and table names: spec §5 rule, 63 characters', () => {
    expectAccepted(pew_sql, (x) => Object.assign(x, { instance_name: 'plant-db_2.0', tablename: 'Line-1.values' }));
    for (const f of ['instance_name', 'tablename']) {
      expectRejected(pew_sql, (x) => (x[f] = 'a b'), f, 'invalid_db_name');
      expectRejected(pew_sql, (x) => (x[f] = "t';--"), f, 'invalid_db_name');
      expectMaxLength(pew_sql, (x, s) => (x[f] = s), f, 63);
    }
    expectRejected(pew_sql, (x) => (x.server = 'db.local;x'), 'server', 'invalid_host');
    expectMaxLength(pew_sql, (x, s) => (x.user = s), 'user', 64);
  });

  it('insert without PLC needs data points and reads through the interface (spec §5)', () => {
    expectRejected(pew_sql, (x) => Object.assign(on(x), { insertWithoutPLC: true }), 'datalist', 'required');
    expectAccepted(pew_sql, (x) => Object.assign(on(x), { insertWithoutPLC: true, datalist: [point] }));
    const d = on(defaultsOf(pew_sql));
    expect(pew_sql.interfaces!(d)).toEqual([]);
    expect(pew_sql.interfaces!({ ...d, insertWithoutPLC: true, interface: 0 })).toEqual([{ path: 'interface', interfaceId: 0, purpose: 'insert' }]);
    expect(pew_sql.interfaces!({ ...defaultsOf(pew_sql), insertWithoutPLC: true })).toEqual([]);
  });

  it('password masked on read and kept when the mask comes back; certificates', () => {
    expect(pew_sql.passwords).toEqual(['pass']);
    const stored = { ...defaultsOf(pew_sql), pass: 'pw' };
    const shown = maskSection(pew_sql, stored);
    expect(shown.pass).toBe(PASSWORD_MASK);
    expect(unmaskSection(pew_sql, shown, stored).pass).toBe('pw');
    expectAccepted(pew_sql, (x) => Object.assign(x, { ca: 'ca.pem', client: 'client.crt', key: 'key.key' }));
    expectRejected(pew_sql, (x) => (x.ca = 'root.pem'), 'ca', 'file_base_name');
  });
});
