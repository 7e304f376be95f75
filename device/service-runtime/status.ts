// What every service engine keeps for the one status answer (device/model/service-status.ts):
// its state and since when, the last success, the last error with its code, its counters. The
// engine owns one book across its runs (a save does not reset the counters).
import type { Clock } from '../../hw/types.ts';
import { SERVICE_ERROR, type ServiceErrorName } from '../model/blocks/convention.ts';
import type { StatusReason } from '../model/reasons.ts';
import type { ServiceError, ServiceRunState, ServiceStatus, StatusService } from '../model/service-status.ts';

export class StatusBook<C extends string> {
  state: ServiceRunState = 'off';
  since: number;
  lastSuccess: number | undefined;
  lastError: ServiceError | undefined;
  plc: StatusReason | undefined;
  readonly counters: Record<C, number>;

  constructor(
    readonly service: StatusService,
    private readonly clock: Clock,
    counters: readonly C[],
  ) {
    this.since = clock.now();
    this.counters = Object.fromEntries(counters.map((c) => [c, 0])) as Record<C, number>;
  }

  /**
   * When the current wait began. A retry between two waits (waiting → running → waiting) does not
   * end it, so a technician sees how long the service has been waiting; a success, or any state but
   * waiting and running, does.
   */
  private waitingSince: number | undefined;

  set(state: ServiceRunState): void {
    if (state === this.state) return;
    const now = this.clock.now();
    if (state === 'waiting') this.waitingSince ??= now;
    else if (state !== 'running') this.waitingSince = undefined;
    this.state = state;
    this.since = state === 'waiting' ? this.waitingSince! : now;
  }

  count(c: C, by = 1): void {
    this.counters[c] += by;
  }

  success(): void {
    this.lastSuccess = this.clock.now();
    this.waitingSince = undefined;
  }

  error(code: Exclude<ServiceErrorName, 'none'>, message: string, why?: StatusReason): void {
    this.lastError = { code, number: SERVICE_ERROR[code], message, ...(why ? { reason: why } : {}), at: this.clock.now() };
  }

  answer(enabled: boolean, queue: { waiting: number; dropped: number; bound: number }, deadLetters?: ServiceStatus['deadLetters']): ServiceStatus {
    return {
      service: this.service,
      enabled,
      state: enabled ? this.state : 'off',
      since: this.since,
      ...(this.lastSuccess !== undefined ? { lastSuccess: this.lastSuccess } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
      counters: { ...this.counters },
      queue,
      ...(deadLetters ? { deadLetters } : {}),
      ...(this.plc ? { plc: this.plc } : {}),
    };
  }
}
