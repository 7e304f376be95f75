// The server field of pew_nosql read as an InfluxDB base URL or a MongoDB address, and the quoting
// of names in InfluxQL and line protocol (device/services/influx.ts, nosql-test.ts).
import { describe, expect, it } from 'vitest';
import { influxBase, influxIdent, influxString, lineEscape } from './influx.ts';
import { mongoAddress } from './nosql-test.ts';

describe('influxBase', () => {
  it('takes the scheme and port given, else http(s) by the encryption setting and port 8086', () => {
    expect(influxBase('http://10.0.0.5:9999', true)).toBe('http://10.0.0.5:9999');
    expect(influxBase('https://influx.plant', false)).toBe('https://influx.plant:8086');
    expect(influxBase('influx.plant', false)).toBe('http://influx.plant:8086');
    expect(influxBase('influx.plant:8087/', true)).toBe('https://influx.plant:8087');
  });
  it('refuses what is not a host', () => {
    expect(() => influxBase('mongodb://x/y/z', false)).toThrow(RangeError);
  });
});

describe('mongoAddress', () => {
  it('reads host and port, 27017 by default', () => {
    expect(mongoAddress('mongodb://db.plant:27018')).toEqual({ host: 'db.plant', port: 27018 });
    expect(mongoAddress('db.plant')).toEqual({ host: 'db.plant', port: 27017 });
    expect(mongoAddress('127.0.0.1:4000/')).toEqual({ host: '127.0.0.1', port: 4000 });
  });
});

describe('InfluxQL and line protocol quoting', () => {
  it('quotes identifiers and strings so a name cannot end the statement', () => {
    expect(influxIdent('my "m"')).toBe('"my \\"m\\""');
    expect(influxString("it's")).toBe("'it\\'s'");
  });
  it('escapes commas, spaces and equals signs in measurements and tags', () => {
    expect(lineEscape('line 1,a=b')).toBe('line\\ 1\\,a\\=b');
  });
});
