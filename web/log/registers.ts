// The PLC registers the data logger's control uses (spec §9 "log memory write 4"; pew_log
// mem_write_stop/error/status, mem_notify and plc_ctrl_wr, one DT word each), shown as the blocks
// of neighbouring words they form, the way the other service pages show their control block.

export interface RegisterBlock {
  start: number;
  length: number;
}

/** The words as blocks of consecutive DT words, in address order; the same word counted once. */
export function registerBlocks(words: readonly number[]): RegisterBlock[] {
  const sorted = [...new Set(words.filter((w) => Number.isInteger(w) && w >= 0))].sort((a, b) => a - b);
  const out: RegisterBlock[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last && last.start + last.length === w) last.length++;
    else out.push({ start: w, length: 1 });
  }
  return out;
}
