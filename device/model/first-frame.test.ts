import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodePrefs, FIRST_FRAME_ATTR, FIRST_FRAME_GATE, FIRST_FRAME_SHOW, NARROW_QUERY, parsePrefs } from './first-frame.ts';

/** Runs the gate as the page would, with this hash and screen; the attribute it sets on the root element, if any. */
function gate(hash: string, narrow: boolean): string | undefined {
  const attrs = new Map<string, string>();
  const document = { documentElement: { setAttribute: (k: string, v: string) => attrs.set(k, v) } };
  const matchMedia = (q: string) => ({ matches: q === NARROW_QUERY && narrow });
  new Function('location', 'matchMedia', 'document', FIRST_FRAME_GATE)({ hash }, matchMedia, document);
  return attrs.get(FIRST_FRAME_ATTR);
}

describe('the first frame gate', () => {
  it('shows the frame for the information page, by name or as the start page, on a wide screen', () => {
    for (const hash of ['#/info', '', '#/']) expect(gate(hash, false), hash).toBe(FIRST_FRAME_SHOW);
  });

  it('leaves it hidden for any other page, a page with a query, and on a narrow screen', () => {
    for (const hash of ['#/com', '#/info?x=1', '#/infos', '#info', '#/info/']) expect(gate(hash, false), hash).toBeUndefined();
    expect(gate('#/info', true)).toBeUndefined();
  });

  it('uses the stylesheet’s own breakpoint for a narrow screen', () => {
    const css = readFileSync(new URL('../../web/styles/app.css', import.meta.url), 'utf8');
    expect(css).toContain(`@media ${NARROW_QUERY}`);
  });
});

describe('the preferences cookie', () => {
  it('carries language, theme and menu filter both ways', () => {
    const prefs = { locale: 'de', theme: 'material-ocean', filter: 'enabled' };
    expect(encodePrefs(prefs)).toBe('de.material-ocean.enabled');
    expect(parsePrefs(encodePrefs(prefs))).toEqual(prefs);
  });

  it('gives nothing for a value that is not three plain names', () => {
    for (const v of [
      undefined,
      '',
      'en',
      'en.default',
      'en.default.all.x',
      'EN.default.all',
      'en..all',
      'en.<b>.all',
      'en.default.all ',
      `en.${'a'.repeat(31)}.all`,
      '1n.default.all',
    ])
      expect(parsePrefs(v), String(v)).toBeUndefined();
  });
});
