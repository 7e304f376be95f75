import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { minifiedTextCss } from './text-css.ts';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function bundle(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'text-css-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const out = await build({
    entryPoints: [join(dir, 'entry.js')],
    bundle: true,
    write: false,
    format: 'esm',
    plugins: [minifiedTextCss(['chrome91'])],
    loader: { '.css': 'text' },
  });
  return out.outputFiles[0]!.text;
}

describe('stylesheets imported as text', () => {
  it('come minified: no comments, no layout whitespace, the same rules', async () => {
    const js = await bundle({
      'page.css':
        '/* the page: a long comment that is no use to a browser */\n.points-card,\n[data-transfer] {\n  content-visibility: auto;\n  margin: 0px 0px 0px 0px;\n}\n',
      'entry.js': "import css from './page.css' with { type: 'text' };\nconsole.log(css);\n",
    });
    expect(js).toContain('.points-card,[data-transfer]{content-visibility:auto;margin:0}');
    expect(js).not.toContain('comment');
  });

  it('a stylesheet imported otherwise is left to its loader', async () => {
    const js = await bundle({ 'page.css': '/* kept */\n.a { color: red; }\n', 'entry.js': "import css from './page.css';\nconsole.log(css);\n" });
    expect(js).toContain('/* kept */');
  });
});
