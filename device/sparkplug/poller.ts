// One read pass over the device's metrics (docs/sparkplug.md): the words of every metric read
// through the link queue of its interface, grouped into block reads as the data logger groups them
// (logger/planner.ts), decoded and scaled as the logger does (logger/values.ts pointValue), and
// turned into Sparkplug values (types.ts toSparkplug), each stamped with the time its block came.
import type { Links } from '../com/links.ts';
import { interfaceProtocol, type LimitOf, planReads, readLimit } from '../logger/planner.ts';
import type { BlockRead } from '../logger/types.ts';
import { pointValue } from '../logger/values.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Metric } from './metrics.ts';
import type { MetricValue } from './payload.ts';
import { toSparkplug } from './types.ts';

/** The link user the reads are made as (the link's statistics and capture). */
export const SPARKPLUG_USER = 'sparkplug';

/** A metric's value of one pass. */
export type PassValue = MetricValue & { metric: Metric };

export interface Pass {
  /** a value per metric, in alias order; null where its block did not answer */
  values: PassValue[];
  /** no block answered: the device is gone (DDEATH) */
  down: boolean;
  /** the first failure's words, for the log and the status */
  error?: string;
}

export class Poller {
  readonly #plan: BlockRead[];
  readonly #byKey: Map<string, Metric>;

  constructor(
    private readonly metrics: readonly Metric[],
    pew: Pick<Pew, 'interfaces'>,
    private readonly links: Pick<Links, 'get'>,
    private readonly now: () => number,
  ) {
    const limitOf: LimitOf = (id, area) => readLimit(interfaceProtocol(pew, id), area);
    this.#plan = planReads(
      metrics.map((m) => m.source),
      limitOf,
    );
    this.#byKey = new Map(metrics.map((m) => [m.source.key, m]));
  }

  /** Requests one pass costs. */
  get reads(): number {
    return this.#plan.length;
  }

  async read(): Promise<Pass> {
    const got = new Map<string, { words: number[]; at: number }>();
    let error: string | undefined;
    for (const b of this.#plan) {
      try {
        const link = this.links.get(b.interfaceId);
        if (!link) throw new Error(`interface ${b.interfaceId} is not enabled`);
        const words = await link.readWords(b.area, b.start, b.count, SPARKPLUG_USER, b.station);
        const at = this.now();
        for (const key of b.points) {
          const p = this.#byKey.get(key)!.source;
          got.set(key, { words: words.slice(p.word - b.start, p.word - b.start + p.words), at });
        }
      } catch (e) {
        error ??= e instanceof Error ? e.message : String(e);
      }
    }
    const failedAt = this.now();
    const values = this.metrics.map((m): PassValue => {
      const g = got.get(m.source.key);
      return {
        metric: m,
        value: g ? toSparkplug(m.datatype, pointValue(m.record, g.words, m.source.bit)) : null,
        timestamp: g?.at ?? failedAt,
      };
    });
    return { values, down: this.#plan.length > 0 && got.size === 0, ...(error !== undefined ? { error } : {}) };
  }
}
