import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { dataPointSchema } from './datapoint.ts';
import { pew_nosql, usedTag } from './nosql.ts';

const mongo = (x: any) => Object.assign(x, { enable_sql: true, server: 'mongodb://db.local:27017', instance_name: 'plant', collection: 'line1' });
const influx = (x: any) => Object.assign(x, { enable_sql: true, db_type: 1, server: 'http://influx.local:8086', instance_name: 'plant', measurement: 'line1' });
const point = (name: string) => ({ ...(v.getDefaults(dataPointSchema) as object), name });

describe('pew_nosql', () => {
  it('defaults: off, Mongo, control register 370, no port field (spec §3, §9)', () => {
    const d = defaultsOf(pew_nosql);
    expect(d).toMatchObject({ enable_sql: false, db_type: 0, plc_control_dt: 370, plc_poll: 1, timeout: 10, collection: '', measurement: '' });
    expect(d).toMatchObject({ tag_name: '', tag_value: '', insertWithoutPLC: false, interface: 4, datalist: [] });
    expect('port' in d || 'tablename' in d).toBe(false);
    expectAccepted(pew_nosql, () => {});
    expectRejected(pew_nosql, (x) => (x.port = 27017), 'port', 'unknown_key');
  });

  it('the 10-register control block is reserved only while enabled and must fit the DT area', () => {
    expect(pew_nosql.registers!(defaultsOf(pew_nosql))).toEqual([]);
    expect(pew_nosql.registers!(mongo(defaultsOf(pew_nosql)))).toEqual([{ path: 'plc_control_dt', start: 370, length: 10 }]);
    expectAccepted(pew_nosql, (x) => (x.plc_control_dt = 999415));
    expectRejected(pew_nosql, (x) => (x.plc_control_dt = 999416), 'plc_control_dt', 'address_out_of_range', { min: 0, max: 999415 });
  });

  it('poll 1-3600 s, timeout 3-120 s, station 0-99 (spec §9)', () => {
    expectRange(pew_nosql, (x, n) => (x.plc_poll = n), 'plc_poll', 1, 3600, 0.1);
    expectRange(pew_nosql, (x, n) => (x.timeout = n), 'timeout', 3, 120);
    expectRange(pew_nosql, (x, n) => (x.plc_addr = n), 'plc_addr', 0, 99);
  });

  it('database types mongo 0, influx 1 (spec §3)', () => {
    expectRejected(pew_nosql, (x) => (x.db_type = 2), 'db_type', 'invalid_value', { allowed: [0, 1] });
  });

  it('server with its port, database, and collection (Mongo) or measurement (Influx) required when enabled', () => {
    expectAccepted(pew_nosql, mongo);
    expectAccepted(pew_nosql, influx);
    for (const f of ['server', 'instance_name', 'collection']) expectRejected(pew_nosql, (x) => Object.assign(mongo(x), { [f]: '' }), f, 'required');
    expectRejected(pew_nosql, (x) => Object.assign(influx(x), { measurement: '' }), 'measurement', 'required');
    expectAccepted(pew_nosql, (x) => Object.assign(influx(x), { server: 'influx.local:8086' }));
    expectRejected(pew_nosql, (x) => (x.server = 'ftp://db.local'), 'server', 'invalid_host');
  });

  it('database, collection and measurement names: spec §5 rule, 63 characters', () => {
    for (const f of ['instance_name', 'collection', 'measurement']) {
      expectRejected(pew_nosql, (x) => (x[f] = 'a$b'), f, 'invalid_db_name');
      expectMaxLength(pew_nosql, (x, s) => (x[f] = s), f, 63);
    }
  });

  it('tag name and tag value: both given or both ignored (spec §5), one alone is no error', () => {
    expectAccepted(pew_nosql, (x) => Object.assign(x, { tag_name: 'line', tag_value: 'L-1' }));
    expectAccepted(pew_nosql, (x) => (x.tag_name = 'line'));
    expectAccepted(pew_nosql, (x) => (x.tag_value = 'L-1'));
    expect(usedTag({ tag_name: 'line', tag_value: 'L-1' })).toEqual({ name: 'line', value: 'L-1' });
    expect(usedTag({ tag_name: 'line', tag_value: '' })).toBeUndefined();
    expect(usedTag({ tag_name: '', tag_value: 'L-1' })).toBeUndefined();
    expectRejected(pew_nosql, (x) => Object.assign(x, { tag_name: 'line', tag_value: 'a,b=c' }), 'tag_value', 'invalid_db_name');
    expectMaxLength(pew_nosql, (x, s) => Object.assign(x, { tag_name: s, tag_value: 'v' }), 'tag_name', 64);
  });

  it('data points follow the shared rules; insert without PLC needs them and reads through the interface', () => {
    expectRejected(pew_nosql, (x) => (x.datalist = [point('a'), point('A')]), 'datalist.1.name', 'duplicate');
    expectRejected(pew_nosql, (x) => (x.datalist = Array.from({ length: 101 }, (_, i) => point(`p${i}`))), 'datalist', 'too_many', { max: 100 });
    expectRejected(pew_nosql, (x) => Object.assign(influx(x), { insertWithoutPLC: true }), 'datalist', 'required');
    const d = { ...influx(defaultsOf(pew_nosql)), insertWithoutPLC: true, interface: 3, datalist: [point('t')] };
    expectAccepted(pew_nosql, (x) => Object.assign(x, d));
    expect(pew_nosql.interfaces!(d)).toEqual([{ path: 'interface', interfaceId: 3, purpose: 'insert' }]);
  });

  it('a point may not take the name of the field the unit writes itself: time (InfluxDB), time_stamp (MongoDB)', () => {
    expectRejected(pew_nosql, (x) => (influx(x).datalist = [point('Time')]), 'datalist.0.name', 'name_reserved', { name: 'Time' });
    expectAccepted(pew_nosql, (x) => (influx(x).datalist = [point('time_stamp')]));
    expectRejected(pew_nosql, (x) => (x.datalist = [point('time_stamp')]), 'datalist.0.name', 'name_reserved', { name: 'time_stamp' });
    expectAccepted(pew_nosql, (x) => (x.datalist = [point('time')]));
  });

  it('password masked on read', () => {
    expect(pew_nosql.passwords).toEqual(['pass']);
    expect(maskSection(pew_nosql, { ...defaultsOf(pew_nosql), pass: 'pw' }).pass).toBe(PASSWORD_MASK);
  });
});
