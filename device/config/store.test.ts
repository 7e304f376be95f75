import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempNameFor, writeDurable } from '../../hw/atomic-file.ts';
import { systemClock } from '../../hw/types.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { defaultsOf } from '../model/section.ts';
import { createLogger } from '../system/log.ts';
import { ConfigStore } from './store.ts';

let dir: string;
const log = () => createLogger({ clock: systemClock, sink: null });
const open = (l = log()) => ConfigStore.open({ dir, defs: CONFIG_SECTIONS, log: l });
const mqtt = (keep_alive: number) => ({ ...(defaultsOf(CONFIG_SECTIONS.find((d) => d.key === 'pew_mqtt')!) as object), keep_alive });
const rtc = (rtc_polling: number) => ({ ...(defaultsOf(CONFIG_SECTIONS.find((d) => d.key === 'pew_rtc')!) as object), rtc_polling });

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'store-')), 'config');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('ConfigStore', () => {
  it('a fresh folder gives every section its defaults without logging errors', async () => {
    const l = log();
    const s = await open(l);
    for (const d of CONFIG_SECTIONS) expect(s.get(d.key)).toEqual(defaultsOf(d));
    expect(l.recent()).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(CONFIG_SECTIONS.map((d) => `${d.key}.json`).sort());
  });

  it('a section file that goes missing later gives its defaults and an error in the log', async () => {
    const s = await open();
    await s.save({ pew_mqtt: mqtt(10) });
    await rm(join(dir, 'pew_mqtt.json'));
    const l = log();
    expect((await open(l)).get('pew_mqtt')).toEqual(mqtt(65));
    expect(l.recent()).toEqual([
      expect.objectContaining({ level: 'error', msg: 'configuration file missing, using defaults', fields: { section: 'pew_mqtt', reason: 'missing' } }),
    ]);
  });

  it('saves survive a reopen; save-all writes every section', async () => {
    const s = await open();
    expect(await s.save({ pew_mqtt: mqtt(10) })).toEqual({ ok: true, keys: ['pew_mqtt'] });
    expect(await s.save({ pew_mqtt: mqtt(11), pew_rtc: rtc(7) })).toEqual({ ok: true, keys: ['pew_mqtt', 'pew_rtc'] });
    const again = await open();
    expect(again.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(11);
    expect(again.get<{ rtc_polling: number }>('pew_rtc').rtc_polling).toBe(7);
  });

  it('refuses an invalid save without touching the files', async () => {
    const s = await open();
    await s.save({ pew_mqtt: mqtt(10) });
    const before = await readFile(join(dir, 'pew_mqtt.json'), 'utf8');
    const r = await s.save({ pew_mqtt: mqtt(10), pew_rtc: rtc(0) });
    expect(r).toEqual({ ok: false, issues: { pew_rtc: [{ path: 'rtc_polling', code: 'out_of_range', params: { min: 1, max: 120 } }] } });
    expect(await readFile(join(dir, 'pew_mqtt.json'), 'utf8')).toBe(before);
    expect(s.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(10);
  });

  it('concurrent saves are applied one after the other, the last one wins', async () => {
    const s = await open();
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.save({ pew_mqtt: mqtt(i) })));
    expect(JSON.parse(await readFile(join(dir, 'pew_mqtt.json'), 'utf8')).keep_alive).toBe(19);
  });

  it('tells listeners which sections changed', async () => {
    const s = await open();
    const seen: string[][] = [];
    s.onChange((keys) => seen.push(keys));
    await s.save({ pew_mqtt: mqtt(3), pew_rtc: rtc(3) });
    await s.save({ pew_rtc: rtc(0) });
    expect(seen).toEqual([['pew_mqtt', 'pew_rtc']]);
  });
});

describe('crash recovery', () => {
  it('a committed journal is completed on start (the crash came after the commit point)', async () => {
    const s = await open();
    await s.save({ pew_mqtt: mqtt(1), pew_rtc: rtc(1) });
    // the state right after the journal was written: new data under temp names, nothing renamed
    const tm = tempNameFor(join(dir, 'pew_mqtt.json'));
    const tr = tempNameFor(join(dir, 'pew_rtc.json'));
    await writeDurable(tm, JSON.stringify(mqtt(2)));
    await writeDurable(tr, JSON.stringify(rtc(2)));
    const names = (p: string) => p.slice(dir.length + 1);
    await writeFile(
      join(dir, 'commit.journal'),
      JSON.stringify({
        pairs: [
          [names(tm), 'pew_mqtt.json'],
          [names(tr), 'pew_rtc.json'],
        ],
      }),
    );
    const l = log();
    const again = await open(l);
    expect(again.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(2);
    expect(again.get<{ rtc_polling: number }>('pew_rtc').rtc_polling).toBe(2);
    expect(await readdir(dir)).not.toContain('commit.journal');
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(l.recent().map((e) => e.msg)).toEqual(['completing an interrupted save of several sections']);
  });

  it('temp files without a journal are an uncommitted save and are discarded', async () => {
    const s = await open();
    await s.save({ pew_mqtt: mqtt(1), pew_rtc: rtc(1) });
    await writeDurable(tempNameFor(join(dir, 'pew_mqtt.json')), JSON.stringify(mqtt(2)));
    const again = await open();
    expect(again.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(1);
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('a damaged journal is ignored with an error in the log', async () => {
    const s = await open();
    await s.save({ pew_mqtt: mqtt(1) });
    await writeFile(join(dir, 'commit.journal'), JSON.stringify({ pairs: [['../../etc/passwd', 'pew_mqtt.json']] }));
    const l = log();
    const again = await open(l);
    expect(again.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(1);
    expect(l.recent()).toContainEqual(expect.objectContaining({ level: 'error', msg: 'configuration journal unreadable, ignored' }));
  });
});

describe('readJson', () => {
  it('answers the masked section as JSON and follows every save', async () => {
    const s = await open();
    expect(JSON.parse(s.readJson('pew_mqtt'))).toEqual(mqtt(65));
    await s.save({ pew_mqtt: { ...mqtt(9), broker_password: 'Hidden-1' } });
    const shown = JSON.parse(s.readJson('pew_mqtt'));
    expect(shown).toMatchObject({ keep_alive: 9, broker_password: '********' });
    expect(s.readJson('pew_mqtt')).not.toContain('Hidden-1');
  });
});

describe('view', () => {
  it('answers every section, secrets included, frozen, the same copy until a save and the saved values after it', async () => {
    const s = await open();
    await s.save({ pew_mqtt: { ...mqtt(9), broker_password: 'Hidden-1' } });
    const v = s.view() as Record<string, { keep_alive?: number; broker_password?: string }>;
    expect(v).toEqual(s.all());
    expect(v.pew_mqtt).toMatchObject({ keep_alive: 9, broker_password: 'Hidden-1' });
    expect(s.view()).toBe(v);
    expect(Object.isFrozen(v.pew_mqtt)).toBe(true);
    expect(() => {
      (v.pew_mqtt as { keep_alive: number }).keep_alive = 1;
    }).toThrow(TypeError);
    expect(s.get<{ keep_alive: number }>('pew_mqtt').keep_alive).toBe(9);
    await s.save({ pew_mqtt: mqtt(12) });
    expect(s.view()).not.toBe(v);
    expect(s.view().pew_mqtt).toMatchObject({ keep_alive: 12 });
  });
});
