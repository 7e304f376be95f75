// Late-answer figures of `npm run bench`: 10,000 requests through five links (MEWTOCOL, MEWTOCOL7
// and Modbus RTU on an in-process 230400-baud wire; MEWTOCOL and Modbus/TCP on loopback) to virtual
// PLCs that answer each request a random 0.5–2 timeouts after it, in order
// (test/support/late-answers.ts). Every DT word holds a value made from its address, so a value
// credited to the wrong request shows. Goals: no value credited to the wrong request, and every
// answer that its request did not take counted as late.
import { LATE_LINES, runLateAnswers } from '../support/late-answers.ts';
import type { Row } from './stats.ts';

const REQUESTS = 10_000;
const TIMEOUT_MS = 10;

/** Adds the rows; returns what broke a goal (a value credited to the wrong request, an answer not counted). */
export async function measureLateAnswers(rows: Row[]): Promise<string[]> {
  const each = Math.round(REQUESTS / LATE_LINES.length);
  const runs = await Promise.all(LATE_LINES.map((line, i) => runLateAnswers(line, { requests: each, timeoutMs: TIMEOUT_MS, seed: 1000 + i })));
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((s, r) => s + f(r), 0);
  const notTaken = (r: (typeof runs)[number]) => r.plc.answers - r.stats.answers;
  const total = sum((r) => r.requests);
  rows.push({
    figure: 'late answers: values credited to the wrong request',
    ours: sum((r) => r.wrong),
    baseline: 0,
    note: `${total} reads and writes of 1-6 DT words over ${LATE_LINES.length} links, each answer 0.5-2 × the ${TIMEOUT_MS}-ms timeout late, in order; goal 0`,
  });
  rows.push({
    figure: 'late answers: counted, of the answers no request took',
    ours: sum((r) => r.stats.lateAnswers + r.stats.mismatched),
    baseline: sum(notTaken),
    note: `goal: all (1.00×); ${sum((r) => r.stats.resyncs)} resync reads; ${sum((r) => r.read + r.written)} of ${total} requests answered in time, the rest failed cleanly`,
  });
  for (const [i, r] of runs.entries()) {
    rows.push({
      figure: `late answers, ${LATE_LINES[i]}: counted / not taken`,
      ours: r.stats.lateAnswers + r.stats.mismatched,
      baseline: notTaken(r),
      note: `${r.requests} requests: ${r.wrong} wrong, ${r.read} reads and ${r.written} writes answered, ${r.failed} failed; ${r.stats.resyncs} resyncs; ${(r.ms / 1000).toFixed(1)} s`,
    });
  }
  return runs.flatMap((r, i) => [
    ...(r.wrong ? [`late answers, ${LATE_LINES[i]}: ${r.wrong} value(s) credited to the wrong request`] : []),
    ...(r.stats.lateAnswers + r.stats.mismatched !== notTaken(r)
      ? [`late answers, ${LATE_LINES[i]}: ${notTaken(r) - r.stats.lateAnswers - r.stats.mismatched} answer(s) not counted`]
      : []),
  ]);
}
