// The handle guard (test/support/handle-guard.ts) really fails a test file that leaves a file or a
// folder handle to the garbage collector: vitest runs the fixtures in test/fixtures/handle-guard in a
// child process, with the guard as the projects have it (setup file, --expose-gc).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { isGcCloseWarning } from './support/handle-guard.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface FileResult {
  name: string;
  status: string;
  message: string;
}

/** vitest on the fixtures in a child process; its JSON report per file. */
async function runFixtures(): Promise<FileResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'handle-guard-'));
  dirs.push(dir);
  const out = join(dir, 'report.json');
  // the child is a vitest of its own, not a worker of this one
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/handle-guard/vitest.config.ts', '--reporter=json', `--outputFile=${out}`];
  await new Promise<void>((resolve) => execFile(process.execPath, args, { cwd: root, env }, () => resolve())); // exits 1: a fixture fails
  return (JSON.parse(await readFile(out, 'utf8')) as { testResults: FileResult[] }).testResults;
}

it('fails the file that leaked a file handle and a folder handle, naming where each was opened; passes the file that closed them', async () => {
  const results = await runFixtures();
  const of = (name: string) => results.find((r) => r.name.endsWith(`test/fixtures/handle-guard/${name}`));
  const leaks = await readFile(join(root, 'test/fixtures/handle-guard/leaks.fixture.ts'), 'utf8');
  const lineOf = (mark: string) => leaks.split('\n').findIndex((l) => l.includes(mark)) + 1;

  expect(of('clean.fixture.ts')).toMatchObject({ status: 'passed' });
  const failed = of('leaks.fixture.ts');
  expect(failed?.status).toBe('failed');
  expect(failed?.message).toContain('Closing file descriptor N on garbage collection');
  expect(failed?.message).toContain('Closing directory handle on garbage collection');
  expect(failed?.message).toMatch(new RegExp(`file handle of \\S+leaks\\.fixture\\.ts opened at \\S+leaks\\.fixture\\.ts:${lineOf('LEAKED FILE')}:`));
  expect(failed?.message).toMatch(new RegExp(`directory \\S+ opened at \\S+leaks\\.fixture\\.ts:${lineOf('LEAKED DIR')}:`));
}, 180_000);

it('takes the warnings of a collected handle and DEP0137, and no other warning', () => {
  expect(isGcCloseWarning(Object.assign(new Error('Closing file descriptor 7 on garbage collection'), { code: undefined }))).toBe(true);
  expect(isGcCloseWarning(new Error('Closing directory handle on garbage collection'))).toBe(true);
  expect(isGcCloseWarning(Object.assign(new Error('Closing a FileHandle object on garbage collection is deprecated.'), { code: 'DEP0137' }))).toBe(true);
  expect(isGcCloseWarning(Object.assign(new Error('Buffer() is deprecated'), { code: 'DEP0005' }))).toBe(false);
});
