import { describe, expect, it } from 'vitest';
import { unzipText } from '../../test/support/unzip.ts';
import { CONTROL_BLOCKS } from '../model/blocks/index.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { crossSectionIssues } from '../model/rules.ts';
import { defaultsOf, type SectionDef, validateSection } from '../model/section.ts';
import { type DataPoint, wordsOf } from '../model/sections/datapoint.ts';
import { pew_email } from '../model/sections/email.ts';
import { pew_ftpc } from '../model/sections/ftpc.ts';
import { pew_httpc } from '../model/sections/httpc.ts';
import { MQTT_REGISTERS, pew_mqtt } from '../model/sections/mqtt.ts';
import { INFLUX, MONGO, pew_nosql } from '../model/sections/nosql.ts';
import { pew_api } from '../model/sections/rest.ts';
import { pew_sql } from '../model/sections/sql.ts';
import { pew_tls } from '../model/sections/tls.ts';
import { controlBlocks } from './example-library.ts';
import { PLC_PLAN_FILE } from './example-plc.ts';
import { EXAMPLE_KINDS, exampleFiles, exampleSettings, exampleZip, isExampleKind } from './examples.ts';

// the section each example is about, written out here so a wrong pairing in examples.ts shows
const SECTION: Record<Exclude<(typeof EXAMPLE_KINDS)[number], 'library'>, SectionDef> = {
  mqtt: pew_mqtt,
  ftp: pew_ftpc,
  sql: pew_sql,
  httpc: pew_httpc,
  email: pew_email,
  rest: pew_api,
  tls: pew_tls,
  mongo: pew_nosql,
  influx: pew_nosql,
};
const services = Object.keys(SECTION) as (keyof typeof SECTION)[];
const start = (def: SectionDef, field = 'plc_control_dt') => (defaultsOf(def) as Record<string, number>)[field]!;

describe('example downloads', () => {
  it('has the ten kinds of spec §7', () => {
    expect([...EXAMPLE_KINDS].sort()).toEqual(['email', 'ftp', 'httpc', 'influx', 'library', 'mongo', 'mqtt', 'rest', 'sql', 'tls']);
    expect(isExampleKind('mqtt')).toBe(true);
    expect(isExampleKind('mqtt.zip')).toBe(false);
  });

  it.each(services)('%s: settings.json is a whole, valid, enabled section', (kind) => {
    const files = Object.fromEntries(exampleFiles(kind).map((f) => [f.name, f.data]));
    const json = JSON.parse(files['settings.json']!);
    expect(json).toEqual(exampleSettings(kind));
    const checked = validateSection(SECTION[kind], json);
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    // saved beside every other section at its defaults it breaks no cross-section rule
    const config = Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, d.key === SECTION[kind].key ? json : defaultsOf(d)]));
    expect(crossSectionIssues(CONFIG_SECTIONS, config)).toEqual({});
    expect(Object.values(json).some((x) => x === true)).toBe(true); // the service is switched on
    for (const secret of SECTION[kind].passwords) expect(json[secret]).toBe(''); // no credential ships
  });

  it('example data points lie clear of every default control block', () => {
    const blocks = CONFIG_SECTIONS.flatMap(controlBlocks);
    for (const p of exampleSettings('sql').datalist)
      for (const b of blocks) expect(p.address > b.start + b.length - 1 || p.address + 1 < b.start, `${p.name} in ${b.section}.${b.path}`).toBe(true);
  });

  it('database examples pick the right NoSQL type', () => {
    expect(exampleSettings('mongo').db_type).toBe(MONGO);
    expect(exampleSettings('influx').db_type).toBe(INFLUX);
    // the field types the unit writes (an integer point with i): a float there is a field type conflict
    expect(exampleFiles('influx').find((f) => f.name === 'sample.lp')!.data).toMatch(
      /^plc_values,unit=unit01 temperature=21\.5,pressure=1\.013,counter=48211i \d{13}$/m,
    );
  });

  it('the SQL scripts create the table the unit checks for (time_stamp, row_key) and grant what it does', () => {
    const files = Object.fromEntries(exampleFiles('sql').map((f) => [f.name, f.data]));
    expect(files['create_table.sql']).toContain(
      'CREATE TABLE IF NOT EXISTS `plc_values` (`time_stamp` DATETIME(3) NOT NULL, `row_key` VARCHAR(40) NOT NULL PRIMARY KEY, `temperature` DOUBLE, `pressure` DOUBLE, `counter` INT UNSIGNED);',
    );
    expect(files['create_table.sql']).toContain("GRANT SELECT, INSERT, UPDATE ON `plant`.`plc_values` TO 'unit01'@'%';");
    expect(files['create_table_postgresql.sql']).toContain('"time_stamp" timestamptz(3) NOT NULL, "row_key" varchar(40) NOT NULL PRIMARY KEY');
    expect(files['create_table_postgresql.sql']).toContain('GRANT SELECT, INSERT ON "plc_values" TO "unit01";');
  });

  it('the PLC register plan of the library names the registers the example settings use, and no other', () => {
    const plan = exampleFiles('library').find((f) => f.name === PLC_PLAN_FILE)!.data;
    const parts = new Map<string, Set<number>>();
    let part = '';
    for (const line of plan.split('\n')) {
      const head = /^\[(\w+)\]/.exec(line);
      if (head) part = head[1]!;
      else if (!line.startsWith(' ') && line !== '') part = ''; // text outside a part
      if (!part) continue;
      const set = parts.get(part) ?? new Set<number>();
      for (const m of line.matchAll(/\bDT(\d+)\b/g)) set.add(Number(m[1]));
      parts.set(part, set);
    }
    const wordsAt = (start: number, length: number) => new Set(Array.from({ length }, (_, i) => start + i));
    const kindOf: Record<string, (typeof services)[number][]> = {
      mqtt: ['mqtt'],
      ftp: ['ftp'],
      httpc: ['httpc'],
      email: ['email'],
      sql: ['sql'],
      nosql: ['mongo', 'influx'],
    };
    for (const block of CONTROL_BLOCKS) {
      for (const kind of kindOf[block.service]!) {
        const start = exampleSettings(kind).plc_control_dt;
        expect(parts.get(block.service), `${block.service} (${kind})`).toEqual(wordsAt(start, block.length));
      }
    }
    // the data points: every register of every point of the database examples, with its value
    for (const kind of ['sql', 'mongo', 'influx'] as const) {
      const points = exampleSettings(kind).datalist as DataPoint[];
      expect(parts.get('datapoints'), kind).toEqual(new Set(points.flatMap((p) => [...wordsAt(p.address, wordsOf(p.type))])));
    }
    expect(plan).toContain('F1 (DMV)  f21.5  DT2000');
    expect(plan).toContain('F1 (DMV)  K48211  DT2004');
    expect([...parts.keys()].sort()).toEqual(['datapoints', ...CONTROL_BLOCKS.map((b) => b.service)].sort());
  });

  it('every README names the default control block of its section, read from the model', () => {
    const readme = (kind: (typeof EXAMPLE_KINDS)[number]) => exampleFiles(kind).find((f) => f.name === 'README.txt')!.data;
    const mqtt = start(pew_mqtt);
    expect(readme('mqtt')).toContain(`DT${mqtt} .. DT${mqtt + MQTT_REGISTERS - 1} (${MQTT_REGISTERS} registers)`);
    for (const kind of ['ftp', 'sql', 'httpc', 'email', 'tls', 'mongo', 'influx'] as const) expect(readme(kind)).toContain(`default DT${start(SECTION[kind])}`);
    expect(readme('tls')).toContain(`default DT${start(pew_tls, 'plc_status_dt')}`);
    expect(readme('rest')).toContain(`default ${start(pew_api, 'http_port')}`);
    const lib = readme('library');
    for (const def of [pew_mqtt, pew_ftpc, pew_sql, pew_httpc, pew_email, pew_tls, pew_nosql]) expect(lib).toContain(`DT${start(def)} `);
  });

  it('zips are valid archives of those files, built once', () => {
    for (const kind of EXAMPLE_KINDS) {
      const z = exampleZip(kind);
      expect(exampleZip(kind)).toBe(z);
      const files = unzipText(z);
      expect(files).toEqual(Object.fromEntries(exampleFiles(kind).map((f) => [f.name, f.data])));
      expect(files['README.txt']).toBeDefined();
    }
    // one Python reader per archive (test/support/unzip.ts): about 1 s in all, several on a loaded machine
  }, 30_000);
});
