// The interoperability list as docs/iec104.md shows it equals what the tables generate (rewrite
// the page with `npx tsx build/iec104-doc.ts`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES } from '../protocol/iec104/types.ts';
import { interopJson, interopMarkdown } from './interop.ts';

const page = readFileSync(new URL('../../docs/iec104.md', import.meta.url), 'utf8');
const generated = /<!-- generated: interop -->\n([\s\S]*?)\n<!-- end generated -->/.exec(page)?.[1];

describe('IEC 104 interoperability list', () => {
  it('docs/iec104.md shows the list the tables generate', () => {
    expect(generated).toBe(interopMarkdown());
  });

  it('marks every type identification of the table, and reads its ranges from the pew_60870 schema (spec §9)', () => {
    const md = interopMarkdown();
    for (const t of TYPES) expect(md).toContain(`| <${t.id}> | ${t.name} |`);
    const j = interopJson();
    expect(j.types).toHaveLength(TYPES.length);
    expect(j.link).toMatchObject({ k: { min: 2, max: 14, default: 12 }, w: { min: 1, max: 13, default: 8 }, t1_s: { max: 255 }, connections: 4 });
    expect(j.addresses).toMatchObject({ common_address: { min: 1, max: 65535 }, originator: { min: 0, max: 255 } });
    expect(j.causes.map((c) => c.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ...Array.from({ length: 22 }, (_, i) => 20 + i), 44, 45, 46, 47]);
    expect(j.functions.file_transfer).toBe(false);
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
  });

  it('the library example carries the same list as iec104_interoperability.json', async () => {
    const { libraryFiles } = await import('../system/example-library.ts');
    const file = libraryFiles().find((f) => f.name === 'iec104_interoperability.json');
    expect(JSON.parse(String(file?.data))).toEqual(interopJson());
    expect(String(libraryFiles().find((f) => f.name === 'README.txt')?.data)).toContain('iec104_interoperability.json');
  });
});
