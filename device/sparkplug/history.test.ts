import { describe, expect, it } from 'vitest';
import { historyJob, historyValues, isHistoryJob } from './history.ts';
import type { Metric } from './metrics.ts';
import { DATATYPES, type DataType } from './types.ts';

const metric = (key: string, alias: number, datatype: DataType) => ({ key, alias, datatype, name: `F/${key}`, unit: '' }) as unknown as Metric;
const byKey = (ms: Metric[]) => new Map(ms.map((m) => [m.key, m]));

const energy = metric('1/4', 4, DATATYPES.Int64);
const level = metric('1/1', 1, DATATYPES.Int16);
const temp = metric('1/3', 3, DATATYPES.Double);
const recipe = metric('2/5', 2, DATATYPES.String);
const running = metric('2/6', 5, DATATYPES.Boolean);

/** Through JSON, as the queue keeps a job on storage. */
const stored = (j: unknown): unknown => JSON.parse(JSON.stringify(j));

describe('the jobs of store-and-forward', () => {
  it('keep a pass by metric key with every value type: a bigint (beyond 2^53 and negative), NaN and ±Infinity, null, texts and booleans come back as they were, with their read times', () => {
    const values = [
      { metric: energy, value: -(2n ** 62n) - 1n, timestamp: 1000 },
      { metric: level, value: null, timestamp: 1000 },
      { metric: temp, value: Number.NaN, timestamp: 1000 },
      { metric: recipe, value: 'pump', timestamp: 1002 },
      { metric: running, value: true, timestamp: 1000 },
    ];
    const job = historyJob(values)!;
    expect(job).toEqual({
      t: 1000,
      m: [
        ['1/4', { b: '-4611686018427387905' }],
        ['1/1', null],
        ['1/3', { f: 'NaN' }],
        ['2/5', 'pump', 1002],
        ['2/6', true],
      ],
    });
    const back = stored(job);
    expect(isHistoryJob(back)).toBe(true);
    const out = historyValues(back as typeof job, byKey([energy, level, temp, recipe, running]));
    expect(out.map((v) => [v.metric.alias, v.value, v.timestamp, v.historical])).toEqual([
      [4, -(2n ** 62n) - 1n, 1000, true],
      [1, null, 1000, true],
      [3, Number.NaN, 1000, true],
      [2, 'pump', 1002, true],
      [5, true, 1000, true],
    ]);
    const inf = historyValues(stored(historyJob([{ metric: temp, value: -Infinity, timestamp: 5 }])) as typeof job, byKey([temp]));
    expect(inf.map((v) => v.value)).toEqual([-Infinity]);
  });

  it('a pass without changes is no job', () => {
    expect(historyJob([])).toBeUndefined();
  });

  it('replayed for the metrics of the run that replays them: a key no longer in the list and a value whose type no longer suits the metric are left out, by key not by alias', () => {
    const job = stored(
      historyJob([
        { metric: level, value: 7, timestamp: 10 },
        { metric: metric('9/9', 2, DATATYPES.Int16), value: 8, timestamp: 10 },
        { metric: energy, value: 5n, timestamp: 10 },
      ]),
    ) as NonNullable<ReturnType<typeof historyJob>>;
    // the logger's list changed: Level got alias 6, Energy is a text now, 9/9 is gone
    const now = byKey([metric('1/1', 6, DATATYPES.Int16), metric('1/4', 1, DATATYPES.String)]);
    expect(historyValues(job, now).map((v) => [v.metric.alias, v.value])).toEqual([[6, 7]]);
  });

  it('a file that is no job is refused (the queue sets it aside)', () => {
    for (const bad of [
      null,
      3,
      { t: 1 },
      { t: 'x', m: [] },
      { t: 1, m: [['k']] },
      { t: 1, m: [[1, 2]] },
      { t: 1, m: [['k', { b: '1.5' }]] },
      { t: 1, m: [['k', { f: 'x' }]] },
      { t: 1, m: [['k', 1, 'x']] },
      { t: 1, m: [['k', [1]]] },
    ])
      expect(isHistoryJob(bad), JSON.stringify(bad)).toBe(false);
    expect(isHistoryJob({ t: 1, m: [] })).toBe(true);
  });
});
