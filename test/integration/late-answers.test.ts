// Late PLC answers through whole links (queue, drivers, line guard) to virtual PLCs that answer each
// request a random 0.5–2 interface timeouts after it (the simulator's `slow` fault with maxDelayMs;
// the answers leave in order, as a PLC's do), on an in-process serial wire with UART timing and over
// TCP. Requesters share each link and read and write random DT ranges; every word holds a value made
// from its address. No value may be credited to the wrong request, and every answer the PLC sent
// must have been taken by its request or counted as late. The timeout is short so that the run is
// quick. A busy machine only makes more answers late; where it made every answer of a link late (no
// value came back to check), that link runs again at twice the timeout, until some answers come in
// time. Every run, the first as the last, must credit no wrong value and count every late answer.
import { describe, expect, it } from 'vitest';
import { type LateLine, type LateRun, runLateAnswers } from '../support/late-answers.ts';

const TIMEOUT_MS = 5;
/** the longest timeout a link is run with, where a busy machine made every answer late at the shorter ones */
const MAX_TIMEOUT_MS = 80;
/** 2,100 requests in all; the serial lines without answer ids, where a late answer looks most like the next, get the most */
const REQUESTS: Record<LateLine, number> = { MEWTOCOL: 600, 'MODBUS RTU': 600, MEWTOCOL7: 300, 'MEWTOCOL TCP': 300, 'MODBUS TCP': 300 };

describe('late answers (random 0.5–2 × the timeout) on every link type', () => {
  it('credit no value to the wrong request, and every late answer is counted', async () => {
    const lines = Object.keys(REQUESTS) as LateLine[];
    // the links are independent: they run side by side
    const runsOf = async (line: LateLine, seed: number): Promise<LateRun[]> => {
      const runs: LateRun[] = [];
      for (let timeoutMs = TIMEOUT_MS; timeoutMs <= MAX_TIMEOUT_MS && !runs.at(-1)?.read; timeoutMs *= 2)
        runs.push(await runLateAnswers(line, { requests: REQUESTS[line], timeoutMs, seed }));
      return runs;
    };
    const all = await Promise.all(lines.map((line, i) => runsOf(line, i + 1)));
    const seen = (r: LateRun) => ({ ...r, stats: { ...r.stats } });
    for (const [i, runs] of all.entries()) {
      const line = lines[i]!;
      // some answers came in time: values were checked
      expect(runs.at(-1)!.read, `${line}: ${JSON.stringify(runs.map(seen))}`).toBeGreaterThan(0);
      for (const r of runs) checkRun(line, r, seen);
    }
  });
});

/** What every run of a link must show, whatever its timeout. */
function checkRun(line: LateLine, r: LateRun, seen: (r: LateRun) => unknown) {
  const why = `${line}: ${JSON.stringify(seen(r))}`;
  expect(r.read + r.written + r.failed, why).toBe(r.requests);
  expect(r.wrong, why).toBe(0);
  // every answer the PLC sent was taken by its own request or dropped and counted as late
  expect(r.stats.answers + r.stats.lateAnswers + r.stats.mismatched, why).toBe(r.plc.answers);
  expect(r.stats.lateAnswers, why).toBeGreaterThan(0);
  expect(r.stats.mismatched, why).toBe(0);
  // reads answered in time are requests that went out and came back; the rest failed cleanly
  expect(r.stats.errors, why).toBe(0);
}
