// The console's type scale (web/styles/app.css): every font size is one of its four sizes, every
// weight 400 or 700, every family the UI or the monospace one. Each other size, weight or family is
// one more font the browser looks up the first time a page uses it (on a slow CPU, a few ms each).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = new URL('.', import.meta.url).pathname;
const sheets = readdirSync(DIR)
  .filter((f) => f.endsWith('.css'))
  .map((f) => ({ file: f, css: readFileSync(join(DIR, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '') }));

/** every `property: value` of the sheets whose property matches `name` */
function declarations(name: RegExp): string[] {
  return sheets.flatMap(({ file, css }) =>
    [...css.matchAll(/([a-z-]+)\s*:\s*([^;{}]+);/g)].filter((m) => name.test(m[1]!)).map((m) => `${file}: ${m[1]}: ${m[2]!.replace(/\s+/g, ' ').trim()}`),
  );
}

describe('type scale', () => {
  it('has its four sizes and two families, defined once', () => {
    const root = declarations(/^--(fs|font)-/);
    expect(root.map((d) => d.split(': ')[1]).sort()).toEqual(['--font-mono', '--font-ui', '--fs-body', '--fs-head', '--fs-small', '--fs-title']);
  });

  it('sizes every text with it', () => {
    const sizes = declarations(/^font-size$/);
    expect(sizes.length).toBeGreaterThan(20);
    expect(sizes.filter((d) => !/: font-size: (var\(--fs-(small|body|title|head)\)|inherit)$/.test(d))).toEqual([]);
  });

  it('writes in 400 and 700 only, in the UI or monospace family', () => {
    expect(declarations(/^font-weight$/).filter((d) => !/: (400|700|normal|bold)$/.test(d))).toEqual([]);
    expect(declarations(/^font-family$/).filter((d) => !/: var\(--font-(ui|mono)\)$/.test(d))).toEqual([]);
    // the shorthand: inherit, or a scale size with a line height and a family of the scale
    expect(declarations(/^font$/).filter((d) => !/: (inherit|var\(--fs-[a-z]+\) \/ [0-9.]+ var\(--font-(ui|mono)\))$/.test(d))).toEqual([]);
  });

  it('gives controls the page font, not the browser one', () => {
    const app = sheets.find((s) => s.file === 'app.css')!.css;
    expect(app).toMatch(/button,\s*input,\s*select,\s*textarea\s*\{\s*font: inherit;\s*\}/);
  });
});
