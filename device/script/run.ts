// One run of the script: one version of the saved pew_script, script_file, pew and pew_log, from
// its start to the next save. [init] runs once at the start; each [cycle N] every N seconds of the
// unit clock; each [on FLAG] on the rising edge of its relay, polled every tick through the
// service control interface. Sections run one after another (they share the names), so a section
// that comes due while it still waits or runs is counted as an overrun and skipped, never stacked.
// A statement that fails is logged with its line and the section goes on with the next one.
import type { Clock } from '../../hw/types.ts';
import { PlcError, plcFailureReason } from '../com/dialog.ts';
import type { FtpSend } from '../ftp/engine.ts';
import { SERVICE_ERROR, type ServiceErrorName } from '../model/blocks/convention.ts';
import { reasonLog, type StatusReason, sameReason } from '../model/reasons.ts';
import type { Program, Section, Statement } from '../model/script/language.ts';
import { sectionLabel } from '../model/script/language.ts';
import type { Logger } from '../system/log.ts';
import type { ScriptBook } from './book.ts';
import type { ScriptCsv } from './csv.ts';
import type { ScriptMemory } from './memory.ts';

export interface ScriptRunDeps {
  clock: Clock;
  log: Logger;
  ftp: FtpSend | undefined;
  tickMs: number;
}

/** A statement's failure with the code of the one classification. */
class StatementError extends Error {
  constructor(
    readonly code: Exclude<ServiceErrorName, 'none'>,
    message: string,
  ) {
    super(message);
  }
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function classify(e: unknown): StatementError {
  if (e instanceof StatementError) return e;
  if (e instanceof PlcError) return new StatementError(e.reason === 'plc_error' ? 'plc_area' : e.reason === 'no_answer' ? 'timeout' : 'other', e.message);
  if (e instanceof RangeError) return new StatementError('bad_request', e.message);
  return new StatementError('other', errorText(e));
}

export class ScriptRun {
  private active = true;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private chain: Promise<void> = Promise.resolve();
  /** sections waiting or running */
  private readonly busy = new Set<Section>();
  private readonly due = new Map<Section, number>();
  /** the relays' last state read (undefined until the first read: no edge at the start) */
  private readonly relays = new Map<Section, boolean>();
  private readonly values = new Map<string, number | null>();
  private file: string | undefined;

  constructor(
    private readonly deps: ScriptRunDeps,
    private readonly program: Program,
    private readonly memory: ScriptMemory,
    private readonly csv: ScriptCsv,
    private readonly book: ScriptBook,
  ) {}

  start(): void {
    this.book.set('running');
    const now = this.deps.clock.now();
    for (const s of this.program.sections) {
      if (s.kind === 'init') this.enqueue(s);
      if (s.kind === 'cycle') this.due.set(s, now + s.seconds * 1000);
    }
    this.schedule();
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    await this.chain;
    await this.csv.close();
  }

  private schedule(): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((e: unknown) => this.deps.log.error('script step failed', { error: errorText(e) }))
        .finally(() => this.schedule());
    }, this.deps.tickMs);
  }

  private async tick(): Promise<void> {
    const now = this.deps.clock.now();
    for (const [s, at] of this.due) {
      if (s.kind !== 'cycle' || now < at) continue;
      // the next time after now on the section's own grid; a clock set back waits at most one period
      let next = at + s.seconds * 1000;
      while (next <= now) next += s.seconds * 1000;
      this.due.set(s, Math.min(next, now + s.seconds * 1000));
      this.enqueue(s);
    }
    await this.pollRelays();
  }

  private async pollRelays(): Promise<void> {
    let problem: StatusReason | undefined;
    let words = '';
    for (const s of this.program.sections) {
      if (s.kind !== 'on' || !this.active) continue;
      let on: boolean;
      try {
        on = await this.memory.relay(s.word, s.bit);
      } catch (e) {
        problem = plcFailureReason(e);
        words = `${s.flag}: ${errorText(e)}`;
        continue;
      }
      const was = this.relays.get(s);
      this.relays.set(s, on);
      if (on && was === false) this.enqueue(s);
    }
    if (!sameReason(problem, this.book.plc)) {
      if (problem) this.deps.log.warn('script: a relay of an [on] section cannot be read', { error: words });
      this.book.plc = problem;
    }
  }

  private enqueue(s: Section): void {
    if (!this.active) return;
    if (this.busy.has(s)) {
      this.book.overrun(s);
      this.deps.log.warn('script: a section came due while it still ran; skipped', { section: sectionLabel(s), line: s.line });
      return;
    }
    this.busy.add(s);
    this.chain = this.chain
      .then(() => this.runSection(s))
      .catch((e: unknown) => this.deps.log.error('script: a section stopped', { section: sectionLabel(s), error: errorText(e) }))
      .finally(() => {
        this.busy.delete(s);
      });
  }

  private async runSection(s: Section): Promise<void> {
    if (!this.active) return;
    const started = this.deps.clock.now();
    const t0 = performance.now();
    for (const st of s.statements) {
      if (!this.active) break;
      try {
        await this.exec(st);
      } catch (e) {
        const f = classify(e);
        this.book.failure(st.line, f.code, f.message);
        this.deps.log.warn('script: a statement failed', { line: st.line, section: sectionLabel(s), code: f.code, error: f.message });
      }
    }
    this.book.ran(s, started, Math.round(performance.now() - t0));
  }

  private async exec(st: Statement): Promise<void> {
    switch (st.op) {
      case 'read':
        this.values.set(st.name, null); // a failed read leaves no old value behind
        this.values.set(st.name, await this.memory.read(st));
        return;
      case 'write': {
        const v = st.value.kind === 'number' ? st.value.value : this.values.get(st.value.name);
        if (v === undefined || v === null)
          throw new StatementError('bad_request', `${st.value.kind === 'name' ? st.value.name : ''} has no value (its read failed or has not run yet)`);
        await this.memory.write(st, v);
        return;
      }
      case 'file':
        if (st.name !== this.file) await this.csv.closeFile();
        this.file = st.name;
        return;
      case 'append': {
        if (this.file === undefined) throw new StatementError('local', 'no file statement has run yet');
        const r = await this.csv.append(
          this.file,
          st.names,
          this.deps.clock.now(),
          st.names.map((n) => this.values.get(n) ?? null),
        );
        if (r.state !== 'ok') throw new StatementError('local', `${this.file}: ${r.reasons.map(reasonLog).join('; ') || r.state}`);
        return;
      }
      case 'send': {
        await this.csv.closeFile();
        const r = await this.deps.ftp?.request('script');
        if (!r) throw new StatementError('other', 'the FTP send is not enabled');
        if (r.result === 'error') {
          const code = r.error?.code;
          throw new StatementError(
            code && code !== 'none' && code in SERVICE_ERROR ? (code as Exclude<ServiceErrorName, 'none'>) : 'other',
            r.error?.message ?? 'the FTP send failed',
          );
        }
        return;
      }
    }
  }
}
