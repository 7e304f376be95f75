// What the script engine keeps for the one status answer (device/model/service-status.ts with its
// script part, device/model/script/status.ts): the service's state book, the errors of the saved
// script, each section's runs and overruns, the last failed statement with its line.
import type { Clock } from '../../hw/types.ts';
import type { ServiceErrorName } from '../model/blocks/convention.ts';
import type { ScriptError, Section } from '../model/script/language.ts';
import { sectionLabel } from '../model/script/language.ts';
import type { ScriptStatus } from '../model/script/status.ts';
import type { ServiceStatus } from '../model/service-status.ts';
import { StatusBook } from '../service-runtime/status.ts';

type SectionStats = ScriptStatus['sections'][number];

export class ScriptBook extends StatusBook<'runs' | 'failed' | 'overruns'> {
  errors: ScriptError[] = [];
  private sections: { section: Section; stats: SectionStats }[] = [];
  private lastFailure: ScriptStatus['lastFailure'];

  constructor(private readonly unitClock: Clock) {
    super('script', unitClock, ['runs', 'failed', 'overruns'] as const);
  }

  /** A new run of a script: its sections, their counts from zero; a failure's line belonged to the text before. */
  program(sections: readonly Section[]): void {
    this.lastFailure = undefined;
    this.sections = sections.map((section) => ({ section, stats: { section: sectionLabel(section), line: section.line, runs: 0, overruns: 0 } }));
  }

  private of(s: Section): SectionStats | undefined {
    return this.sections.find((x) => x.section === s)?.stats;
  }

  ran(s: Section, started: number, durationMs: number): void {
    const st = this.of(s);
    if (st) {
      st.runs++;
      st.lastRun = started;
      st.durationMs = durationMs;
    }
    this.count('runs');
    this.success();
  }

  overrun(s: Section): void {
    const st = this.of(s);
    if (st) st.overruns++;
    this.count('overruns');
  }

  failure(line: number, code: Exclude<ServiceErrorName, 'none'>, message: string): void {
    this.count('failed');
    this.error(code, `line ${line}: ${message}`);
    this.lastFailure = { line, message, at: this.unitClock.now() };
  }

  status(enabled: boolean): ServiceStatus {
    return {
      ...this.answer(enabled, { waiting: 0, dropped: 0, bound: 0 }),
      script: {
        errors: this.errors,
        sections: this.sections.map((x) => ({ ...x.stats })),
        ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
      },
    };
  }
}
