import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('device/protocol/iec104 boundaries (architecture.md)', () => {
  it.each(modules)('%s imports only the codec folders and uses no Node API, timer or clock', (file) => {
    const src = readFileSync(dir + file, 'utf8');
    const specifiers = [...src.matchAll(/^\s*(?:import|export)[^'";]*from\s+'([^']+)'/gm)].map((m) => m[1]);
    for (const s of specifiers) expect(s).toMatch(/^\.\/[a-z0-9-]+\.ts$|^\.\.\/result\.ts$/);
    expect(src).not.toMatch(/\bBuffer\.\w+\(|new Buffer|\bprocess\.\w|require\(|setTimeout\(|setInterval\(|Date\.now\(|performance\.now\(/);
  });

  it('the index re-exports every module', () => {
    const index = readFileSync(`${dir}index.ts`, 'utf8');
    for (const f of modules.filter((m) => m !== 'index.ts')) expect(index).toContain(`'./${f}'`);
  });
});
