import { describe, expect, it } from 'vitest';
import { unzipText } from '../../test/support/unzip.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { crossSectionIssues } from '../model/rules.ts';
import { defaultsOf, type SectionDef, validateSection } from '../model/section.ts';
import { pew_email } from '../model/sections/email.ts';
import { pew_ftpc } from '../model/sections/ftpc.ts';
import { pew_httpc } from '../model/sections/httpc.ts';
import { MQTT_REGISTERS, pew_mqtt } from '../model/sections/mqtt.ts';
import { INFLUX, MONGO, pew_nosql } from '../model/sections/nosql.ts';
import { pew_api } from '../model/sections/rest.ts';
import { pew_sql } from '../model/sections/sql.ts';
import { pew_tls } from '../model/sections/tls.ts';
import { controlBlocks } from './example-library.ts';
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
    expect(exampleFiles('influx').find((f) => f.name === 'sample.lp')!.data).toMatch(
      /^plc_values,unit=unit01 temperature=21\.5,pressure=1\.013,counter=48211\.0 \d+$/m,
    );
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
