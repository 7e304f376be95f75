// Prints, at the end of `npm test`, the failed tests of the run's reports (written by
// test/failures-reporter.ts), so the last lines of a long log, all a CI log may keep, name what
// failed and why; and the slowest files of each group, so a file that grows slow is seen.
// Usage: tsx test/failures.ts <label>=<report.json> ...
import { readFileSync } from 'node:fs';
import type { RunReport } from './failures-reporter.ts';

/** The first lines of a failure: the message and where it happened, without the whole stack. */
export function shortFailure(message: string, lines = 6): string {
  return message
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, lines)
    .map((l) => `      ${l}`)
    .join('\n');
}

/** The failures of one report, one block per failed test or failed file (a file that did not load). */
export function failuresOf(report: RunReport): string[] {
  const out: string[] = [];
  for (const file of report.files) {
    for (const t of file.failed) out.push(`  ✗ ${file.file} > ${t.name}\n${shortFailure(t.message)}`);
    for (const e of file.errors) out.push(`  ✗ ${file.file}\n${shortFailure(e)}`);
    if (file.failed.length === 0 && file.errors.length === 0 && file.state === 'failed') out.push(`  ✗ ${file.file}\n      failed`);
  }
  return out;
}

/** The `n` slowest files, "  12.3 s  path (N tests)". */
export function slowestOf(report: RunReport, n = 5): string[] {
  return [...report.files]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file} (${f.tests} tests)`);
}

if (process.argv[1]?.endsWith('failures.ts')) {
  const reports: [string, RunReport][] = [];
  for (const arg of process.argv.slice(2)) {
    const [label, path] = arg.split('=', 2) as [string, string];
    try {
      reports.push([label, JSON.parse(readFileSync(path, 'utf8'))]);
    } catch {
      console.log(`${label}: no report (the run ended before it wrote one)`);
    }
  }
  for (const [label, report] of reports) console.log(`${label}, slowest files:\n${slowestOf(report).join('\n')}`);
  for (const [label, report] of reports) {
    const failures = failuresOf(report);
    if (failures.length > 0) console.log(`== what failed\n${label}: ${failures.length} failed\n${failures.join('\n')}`);
  }
}
