// Late PLC answers through whole links (queue, drivers, line guard) to virtual PLCs that answer each
// request a random 0.5–2 interface timeouts after it (the simulator's `slow` fault with maxDelayMs;
// the answers leave in order, as a PLC's do), on an in-process serial wire with UART timing and over
// TCP. Requesters share each link and read and write random DT ranges; every word holds a value made
// from its address. No value may be credited to the wrong request, and every answer the PLC sent
// must have been taken by its request or counted as late. The timeout is short so that the run is
// quick; nothing here depends on how fast the machine is (a busy machine only makes more answers late).
import { describe, expect, it } from 'vitest';
import { type LateLine, type LateRun, runLateAnswers } from '../support/late-answers.ts';

const TIMEOUT_MS = 5;
/** 2,100 requests in all; the serial lines without answer ids, where a late answer looks most like the next, get the most */
const REQUESTS: Record<LateLine, number> = { MEWTOCOL: 600, 'MODBUS RTU': 600, MEWTOCOL7: 300, 'MEWTOCOL TCP': 300, 'MODBUS TCP': 300 };

describe('late answers (random 0.5–2 × the timeout) on every link type', () => {
  it('credit no value to the wrong request, and every late answer is counted', async () => {
    const lines = Object.keys(REQUESTS) as LateLine[];
    // the links are independent: they run side by side
    const runs = await Promise.all(lines.map((line, i) => runLateAnswers(line, { requests: REQUESTS[line], timeoutMs: TIMEOUT_MS, seed: i + 1 })));
    const seen = (r: LateRun) => ({ ...r, stats: { ...r.stats } });
    for (const [i, r] of runs.entries()) {
      const line = lines[i]!;
      const why = `${line}: ${JSON.stringify(seen(r))}`;
      expect(r.read + r.written + r.failed, why).toBe(r.requests);
      expect(r.read, why).toBeGreaterThan(0); // some answers came in time: values were checked
      expect(r.wrong, why).toBe(0);
      // every answer the PLC sent was taken by its own request or dropped and counted as late
      expect(r.stats.answers + r.stats.lateAnswers + r.stats.mismatched, why).toBe(r.plc.answers);
      expect(r.stats.lateAnswers, why).toBeGreaterThan(0);
      expect(r.stats.mismatched, why).toBe(0);
      // reads answered in time are requests that went out and came back; the rest failed cleanly
      expect(r.stats.errors, why).toBe(0);
    }
  });
});
