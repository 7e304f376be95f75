import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoggerState, STATE_FILE } from './state.ts';

const dir = () => mkdtemp(join(tmpdir(), 'logger-state-'));

describe('logger state', () => {
  it('keeps the last trigger of each log file across a restart', async () => {
    const d = await dir();
    let now = 1_000_000;
    const a = LoggerState.at(d, () => now, 60_000);
    await a.load();
    expect(a.lastTrigger('tank')).toBe(0);
    await a.triggered('tank', 1700000000);
    const b = LoggerState.at(d, () => now);
    await b.load();
    expect(b.lastTrigger('tank')).toBe(1700000000);
    // within the interval: kept in memory only, written at flush
    now += 1000;
    await a.triggered('tank', 1700000001);
    await a.triggered('pump', 1700000001);
    expect(JSON.parse(await readFile(join(d, STATE_FILE), 'utf8'))).toEqual({ lastTrig: { tank: 1700000000 } });
    await a.flush();
    expect(JSON.parse(await readFile(join(d, STATE_FILE), 'utf8'))).toEqual({ lastTrig: { tank: 1700000001, pump: 1700000001 } });
    now += 60_000;
    await a.triggered('tank', 1700000061);
    expect(JSON.parse(await readFile(join(d, STATE_FILE), 'utf8')).lastTrig.tank).toBe(1700000061);
  });

  it('a clock set back does not hold the state back', async () => {
    const d = await dir();
    let now = 10_000_000;
    const s = LoggerState.at(d, () => now, 60_000);
    await s.triggered('tank', 100);
    now -= 3_600_000;
    await s.triggered('tank', 200);
    const t = LoggerState.at(d, () => now);
    await t.load();
    expect(t.lastTrigger('tank')).toBe(200);
  });

  it('a corrupt or hostile state file is an empty state', async () => {
    const d = await dir();
    await mkdir(join(d, 'logger'), { recursive: true });
    await writeFile(join(d, STATE_FILE), '{"lastTrig":{"a":-5,"b":"x","c":12');
    const s = LoggerState.at(d, () => 0);
    await s.load();
    expect(s.lastTrigger('c')).toBe(0);
    await writeFile(join(d, STATE_FILE), '{"lastTrig":{"a":-5,"b":"x","c":12}}');
    await s.load();
    expect([s.lastTrigger('a'), s.lastTrigger('b'), s.lastTrigger('c')]).toEqual([0, 0, 12]);
  });

  it('forgets log files that were removed', async () => {
    const d = await dir();
    const s = LoggerState.at(d, () => 0);
    await s.triggered('a', 5);
    await s.triggered('b', 6);
    s.keepOnly(new Set(['b']));
    await s.flush();
    const t = LoggerState.at(d, () => 0);
    await t.load();
    expect([t.lastTrigger('a'), t.lastTrigger('b')]).toEqual([0, 6]);
  });
});
