// security.md CFG-1: saves killed with SIGKILL at random moments never leave a section torn,
// unparsable, lost after acknowledgement, or a save-all half applied. The invariant is written
// out in test/support/crash-check.ts; the checker is first shown to fail on broken stores.

import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkStore, expectedState, seedStore } from '../support/crash-check.ts';
import { removeSaveLoopBundle, runCrashLoop } from '../support/crash-loop.ts';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'crash-safety-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  removeSaveLoopBundle();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const serialize = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

describe('the crash checker fails on broken stores', () => {
  it('accepts a cleanly seeded store', async () => {
    const dir = await tempDir();
    await seedStore(dir);
    expect(await checkStore(dir)).toMatchObject({ generation: 0, problems: [] });
  });

  it('rejects a torn section file (written in place, cut short)', async () => {
    const dir = await tempDir();
    await seedStore(dir);
    const file = join(dir, 'pew.json');
    await truncate(file, Math.floor((await readFile(file)).length / 2));
    const { problems } = await checkStore(dir);
    expect(problems.join('\n')).toMatch(/unreadable/);
  });

  it('rejects an emptied section file (truncated, never written)', async () => {
    const dir = await tempDir();
    await seedStore(dir);
    await writeFile(join(dir, 'pew_redirect.json'), '');
    expect((await checkStore(dir)).problems).not.toEqual([]);
  });

  it('rejects a save-all applied to some sections only', async () => {
    const dir = await tempDir();
    await seedStore(dir);
    // generation 1 reached pew_mqtt and pew, not pew_redirect
    const g1 = expectedState(1);
    await writeFile(join(dir, 'pew_mqtt.json'), serialize(g1.pew_mqtt));
    await writeFile(join(dir, 'pew.json'), serialize(g1.pew));
    const { problems } = await checkStore(dir);
    expect(problems.join('\n')).toMatch(/pew_redirect is not at the generation/);
  });

  it('catches a child that writes files in place, end to end', async () => {
    const result = await runCrashLoop({ iterations: 40, dir: await tempDir(), unsafe: true });
    expect(result.violations).not.toEqual([]);
  });
});

describe('CFG-1 kill -9 loop', () => {
  it('200 saves killed at random moments: every restart loads one whole generation', async () => {
    // two stores of their own, 100 kills each, side by side: the same 200 kills and checks, with
    // the child starts (most of the time) spread over both cores
    const results = await Promise.all([runCrashLoop({ iterations: 100, dir: await tempDir() }), runCrashLoop({ iterations: 100, dir: await tempDir() })]);
    for (const result of results) {
      expect(result.violations).toEqual([]);
      expect(result.iterations).toBe(100);
      // each child acknowledged at least one save before its kill, so the loop really saved
      expect(result.generation).toBeGreaterThanOrEqual(100);
    }
    // the random delays must land inside saves often, or the test proves little
    expect(results[0]!.killsDuringWrite + results[1]!.killsDuringWrite).toBeGreaterThan(20);
  }, 600_000); // 200 child starts and kills: about 25 s alone, and a busy machine slows every start
});
