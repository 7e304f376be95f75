import { describe, expect, it } from 'vitest';
import { type Outputs, outputsOfModule, pageFiles, staticClosure } from './closure.ts';

type Kind = 'import-statement' | 'dynamic-import';
const out = (imports: [string, Kind][], extra: { entryPoint?: string; cssBundle?: string; inputs?: string[] } = {}): Outputs[string] => ({
  bytes: 1,
  exports: [],
  imports: imports.map(([path, kind]) => ({ path, kind })),
  inputs: Object.fromEntries((extra.inputs ?? []).map((i) => [i, { bytesInOutput: 1 }])),
  ...(extra.entryPoint ? { entryPoint: extra.entryPoint } : {}),
  ...(extra.cssBundle ? { cssBundle: extra.cssBundle } : {}),
});

// main → shared (static), main ⇢ info, en, other (dynamic); info → shared, ui; other → big; ui ⇢ later
const outputs: Outputs = {
  'main.js': out(
    [
      ['shared.js', 'import-statement'],
      ['info.js', 'dynamic-import'],
      ['en.js', 'dynamic-import'],
      ['other.js', 'dynamic-import'],
    ],
    { entryPoint: 'web/main.tsx', cssBundle: 'main.css', inputs: ['web/main.tsx'] },
  ),
  'main.css': out([]),
  'shared.js': out([], { inputs: ['web/shared.ts', 'web/i18n/util.ts'] }),
  'info.js': out(
    [
      ['shared.js', 'import-statement'],
      ['ui.js', 'import-statement'],
    ],
    { entryPoint: 'web/pages/info.tsx' },
  ),
  'ui.js': out([['later.js', 'dynamic-import']]),
  'later.js': out([]),
  'en.js': out([['shared.js', 'import-statement']], { entryPoint: 'web/i18n/en/index.ts' }),
  'other.js': out([['big.js', 'import-statement']], { entryPoint: 'web/pages/other.tsx' }),
  'big.js': out([]),
};

describe('closures over the metafile', () => {
  it('follows static imports and the CSS bundle, not dynamic imports', () => {
    expect(staticClosure(outputs, 'main.js')).toEqual(['main.js', 'main.css', 'shared.js']);
    expect(staticClosure(outputs, 'info.js').sort()).toEqual(['info.js', 'shared.js', 'ui.js']);
  });

  it('finds a module by its own entry, else by the output holding its code', () => {
    expect(outputsOfModule(outputs, 'web/pages/info.tsx')).toEqual(['info.js']);
    expect(outputsOfModule(outputs, 'web/i18n/util.ts')).toEqual(['shared.js']);
    expect(outputsOfModule(outputs, 'web/pages/none.tsx')).toEqual([]);
  });

  it('a page is the union of the closures, each file once, missing modules reported', () => {
    const page = pageFiles(outputs, 'web/main.tsx', ['web/pages/info.tsx', 'web/i18n/en/index.ts', 'web/pages/missing.tsx']);
    expect(page.files.sort()).toEqual(['en.js', 'info.js', 'main.css', 'main.js', 'shared.js', 'ui.js']);
    expect(page.missing).toEqual(['web/pages/missing.tsx']);
  });
});
