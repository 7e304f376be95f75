// The traffic monitor's records in the user's language: every key of the unit's error tables has its
// text in every language, and decoded frames and events read as the page shows them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEW_ERRORS, mewErrorInfo } from '../../device/protocol/mewtocol-errors.ts';
import { modbusExceptionInfo } from '../../device/protocol/modbus-pdu.ts';

const LANGS = ['en', 'de', 'fr'] as const;
// the console's texts (web/i18n/translate.ts) are made for a document: imported under stubs, and
// the modules made under them leave the registry with them
let words: typeof import('./monitor-words.ts');
let translate: typeof import('../i18n/translate.ts');
let util: typeof import('../i18n/i18n-util.ts');
const texts = (l: (typeof LANGS)[number]) => {
  translate.locale.value = l;
  translate.LL.value = util.i18nObject(l);
  return translate.LL.value.monitor;
};

describe('the monitor in words', () => {
  beforeAll(async () => {
    vi.resetModules();
    vi.stubGlobal('document', { documentElement: { dataset: {}, lang: '' } });
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
    translate = await import('../i18n/translate.ts');
    words = await import('./monitor-words.ts');
    util = await import('../i18n/i18n-util.ts');
    (await import('../../test/support/locales.ts')).loadFullLocales();
  });
  afterAll(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('has a text for every MEWTOCOL error key and Modbus exception key, in every language', () => {
    const mew = [...new Set([...MEW_ERRORS.values()].map((e) => e.key)), mewErrorInfo(99).key];
    const modbus = [...Array.from({ length: 12 }, (_, c) => modbusExceptionInfo(c).key)];
    for (const l of LANGS) {
      const t = util.loadedLocales[l].monitor;
      expect(mew.filter((k) => !(t.mew as Record<string, string | undefined>)[k])).toEqual([]);
      expect([...new Set(modbus)].filter((k) => !(t.modbus as Record<string, string | undefined>)[k])).toEqual([]);
    }
  });

  it('words a read with its values, an error answer with its table text, an unreadable frame with why', () => {
    const read = { what: 'answer' as const, command: 'RD', station: '01', area: 'DT', start: 10, count: 2, values: [4660, 7] };
    const error = { what: 'error', station: '01', error: { table: 'mewtocol', code: 61, key: 'data_error' } } as const;
    const fc6 = {
      what: 'error',
      command: 'FC6',
      area: 'holding_registers',
      start: 5,
      count: 1,
      error: { table: 'modbus', code: 2, key: 'illegal_data_address' },
    } as const;
    let t = texts('en');
    expect(words.frameText(t, read)).toBe('Read DT 10–11 = 4660, 7');
    expect(words.frameText(t, error)).toBe('Error 61: data error');
    expect(words.frameText(t, fc6)).toBe('Write holding registers 5: Error 2: illegal data address');
    expect(words.frameText(t, { what: 'request', command: 'WD', area: 'DT', start: 5, count: 1, values: [1] })).toBe('Write DT 5 = 1');
    expect(words.frameText(t, { what: 'answer', command: 'RT' })).toBe('Read status: done');
    expect(words.frameText(t, { what: 'unreadable', problem: 'bcc' })).toBe('Unreadable: check code (BCC) wrong');
    expect(words.frameText(t, { what: 'unreadable', problem: 'something_new' })).toBe('Unreadable: something_new');
    expect(words.frameText(t, { what: 'iec', command: 'U', iec: { u: 'startdt_act' } })).toBe('U STARTDT act');
    expect(
      words.frameText(t, {
        what: 'iec',
        command: 'I',
        station: '1',
        iec: { ns: 0, nr: 1, type: 'M_SP_NA_1', typeId: 1, cot: 20, objects: 18, ioas: [1, 2] },
        values: [1, 0],
      }),
    ).toBe('I N(S) 0 N(R) 1 · M_SP_NA_1 COT 20 · IOA 1, 2 (16 more) = 1, 0');
    t = texts('de');
    expect(words.frameText(t, read)).toBe('Lesen DT 10–11 = 4660, 7');
    expect(words.frameText(t, error)).toBe('Fehler 61: Datenfehler');
    t = texts('fr');
    expect(words.frameText(t, error)).toBe('Erreur 61\u00a0: erreur de données');
  });

  it('words events with their values; the bad ones are marked', () => {
    const t = texts('en');
    const ev = (event: string, args?: Record<string, string | number>) =>
      ({ seq: 1, t: 0, source: 'COM1', kind: 'event', event, ...(args ? { args } : {}) }) as never;
    expect(words.eventText(t, ev('link_down', { reason: 'plc_no_answer' }))).toBe('Link down: No answer from the PLC.');
    // a reason whose values the event does not carry is left out rather than worded with empty places
    expect(words.eventText(t, ev('link_down', { reason: 'tcp_no_connection' }))).toBe('Link down');
    expect(words.eventText(t, ev('link_down', { reason: 'tcp_refused', host: '10.0.0.9', port: 502 }))).toBe(
      'Link down: TCP port 502 of 10.0.0.9 is not open.',
    );
    expect(words.eventText(t, ev('link_down'))).toBe('Link down');
    expect(words.eventText(t, ev('no_answer', { ms: 300 }))).toBe('No answer within 300 ms');
    expect(words.eventText(t, ev('client_refused', { why: 'full' }))).toBe('Client refused: all client places are taken');
    expect(words.eventText(t, ev('request_refused', { code: 65 }))).toBe('Request refused by a restriction (code 65)');
    expect(words.eventText(t, ev('capture_started', { level: 'raw', minutes: 5 }))).toBe('Capture started: Decoded with raw bytes, 5 min');
    expect(words.eventText(t, ev('capture_stopped', { why: 'timeout' }))).toBe('Capture ended after its time');
    expect(words.isBad(ev('request_refused'))).toBe(true);
    expect(words.isBad(ev('client_connected'))).toBe(false);
    expect(words.eventText(texts('de'), ev('link_down', { reason: 'plc_no_answer' }))).toMatch(/^Verbindung unterbrochen: /);
  });

  it('names the sources: a port, the Modbus gateway, the IEC 104 station', () => {
    const t = texts('en');
    const sources = [
      { id: 'port:9094', kind: 'thread', protocol: 'mewtocol', active: true },
      { id: 'port:502', kind: 'thread', protocol: 'modbus_tcp', active: true },
    ] as const;
    expect(['COM1', 'port:9094', 'port:502', 'iec104'].map((id) => words.sourceName(t, id, [...sources]))).toEqual([
      'COM1',
      'Port 9094',
      'Modbus gateway, port 502',
      'IEC 104 station',
    ]);
  });
});
