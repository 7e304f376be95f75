// The logger and the PLC's control registers (spec §3 pew_log, §4 "the write status can signal
// stop, error or low memory", §9 log memory write 4 registers), through the service control
// interface (pew.interface_plc):
//
//   enable_plc_ctrl  the PLC starts and stops logging: DT plc_ctrl_wr ≠ 0 → log, 0 → stop
//   enable_mem_ctrl  the logger reports its write state, each register written when it changes:
//                      mem_write_stop    1 while logging is stopped (by the PLC or for lack of space)
//                      mem_write_error   1 while writing fails (volume removed, I/O error, full)
//                      mem_write_status  0 ok, 1 stopped, 2 error, 3 low memory
//                      mem_notify        1 while the volume is low on memory
// A register write that fails is tried again with the next report: the PLC always ends up with
// the current state, never with a state that was already gone when it was written.
import type { Log } from '../model/sections/log.ts';
import type { WriteState } from './types.ts';

/** One DT word of the PLC behind the service control interface. */
export interface ControlIo {
  readWord(address: number): Promise<number>;
  writeWord(address: number, value: number): Promise<void>;
}

export const STATUS_CODE: Readonly<Record<WriteState, number>> = { ok: 0, stopped: 1, error: 2, low_memory: 3 };

type MemRegister = 'mem_write_stop' | 'mem_write_error' | 'mem_write_status' | 'mem_notify';

/** The value of each status register for a write state. */
export function statusWords(state: WriteState): Record<MemRegister, number> {
  return {
    mem_write_stop: state === 'stopped' ? 1 : 0,
    mem_write_error: state === 'error' ? 1 : 0,
    mem_write_status: STATUS_CODE[state],
    mem_notify: state === 'low_memory' ? 1 : 0,
  };
}

/** Writes the status registers of `log` on change; a failed write is repeated at the next report. */
export class StatusReporter {
  /** what the PLC holds, as far as we know (undefined: not written yet or the write failed) */
  private readonly written = new Map<MemRegister, number>();

  constructor(
    private readonly io: ControlIo,
    private readonly log: Pick<Log, 'enable_mem_ctrl' | MemRegister>,
  ) {}

  /** true when every register holds the state's value afterwards */
  async report(state: WriteState): Promise<boolean> {
    if (!this.log.enable_mem_ctrl) return true;
    let ok = true;
    for (const [reg, value] of Object.entries(statusWords(state)) as [MemRegister, number][]) {
      if (this.written.get(reg) === value) continue;
      try {
        await this.io.writeWord(this.log[reg], value);
        this.written.set(reg, value);
      } catch {
        this.written.delete(reg);
        ok = false;
      }
    }
    return ok;
  }
}

/** With enable_plc_ctrl: whether the PLC asks for logging; undefined when the register cannot be read (keep the last decision). */
export async function plcWantsLogging(io: ControlIo, log: Pick<Log, 'enable_plc_ctrl' | 'plc_ctrl_wr'>): Promise<boolean | undefined> {
  if (!log.enable_plc_ctrl) return true;
  try {
    return (await io.readWord(log.plc_ctrl_wr)) !== 0;
  } catch {
    return undefined;
  }
}
