// The README for a newcomer (at most 200 lines) and the documentation folder: no dead link or
// anchor, no link out of the repository, and every file of docs/ reachable from both the README
// and docs/README.md. The checker itself is tried on small samples first, so a checker that
// accepts everything cannot pass.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, checkFile, linkedFiles, linksOf } from './links.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const docFiles = (dir = DOCS): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? docFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));

describe('the link checker', () => {
  it('finds links and headings as GitHub renders them, not inside code', () => {
    const md =
      "# Hello, World!\n## The unit's layout (`npm run x -- --root DIR …`)\n## Hello, World!\n[a](b.md#c) ![i](img.png)\n`[no](x.md)`\n```\n[no](y.md)\n# not a heading\n```\n[ref]: ref.md\n";
    expect(linksOf(md)).toEqual(['b.md#c', 'img.png', 'ref.md']);
    expect([...anchorsOf(md)]).toEqual(['hello-world', 'the-units-layout-npm-run-x------root-dir-', 'hello-world-1']);
  });

  it('reports a missing file, a missing anchor and a link out of the repository', () => {
    const root = mkdtempSync(join(tmpdir(), 'links-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs', 'a.md'), '# Title\n## Part two\n');
      writeFileSync(
        join(root, 'README.md'),
        '[ok](docs/a.md#part-two) [self](#top) [gone](docs/b.md) [bad](docs/a.md#part-three) [out](../shared/x.md) [web](https://example.com/x)\n# Top\n',
      );
      expect(checkFile(root, join(root, 'README.md')).map((p) => [p.link, p.why])).toEqual([
        ['docs/b.md', 'no such file'],
        ['docs/a.md#part-three', 'no heading #part-three in docs/a.md'],
        ['../shared/x.md', 'points outside the repository'],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('README and docs/', () => {
  it('the README is at most 200 lines and has the first ten minutes', () => {
    const text = readFileSync(README, 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    expect(anchorsOf(text)).toContain('first-ten-minutes');
    expect(text).toContain('npm install && npm start');
    expect(text).toContain('npm test');
  });

  it('no dead link, no missing anchor, no link out of the repository', () => {
    const problems = [README, ...docFiles()].flatMap((f) => checkFile(ROOT, f));
    expect(problems).toEqual([]);
  });

  it('every file of docs/ is linked from the README and from docs/README.md', () => {
    const index = join(DOCS, 'README.md');
    const fromReadme = linkedFiles(README);
    const fromIndex = linkedFiles(index);
    const pages = docFiles().filter((f) => f !== index);
    expect(pages.length).toBeGreaterThan(10);
    expect(fromReadme).toContain(index);
    expect(pages.filter((f) => !fromReadme.has(f)).map((f) => f.slice(ROOT.length))).toEqual([]);
    expect(pages.filter((f) => !fromIndex.has(f)).map((f) => f.slice(ROOT.length))).toEqual([]);
  });

  it('every npm script the README and docs/ name exists in package.json', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = new Set([README, ...docFiles()].flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((m) => m[1]!)));
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((n) => !scripts.includes(n))).toEqual([]);
  });
});
