// Prints the failed tests of vitest JSON reports (--reporter=json) at the end of `npm test`, so the
// last lines of a long run, all a CI log may keep, name what failed and why.
// Usage: tsx test/failures.ts <label>=<report.json> ...
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Assertion {
  fullName: string;
  status: string;
  failureMessages?: string[];
}
interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults: Assertion[];
}

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
export function failuresOf(report: { testResults?: FileResult[] }): string[] {
  const out: string[] = [];
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failed) out.push(`  ✗ ${name} > ${a.fullName}\n${shortFailure((a.failureMessages ?? []).join('\n'))}`);
    if (failed.length === 0 && file.status === 'failed') out.push(`  ✗ ${name}\n${shortFailure(file.message ?? 'failed')}`);
  }
  return out;
}

if (process.argv[1]?.endsWith('failures.ts')) {
  for (const arg of process.argv.slice(2)) {
    const [label, path] = arg.split('=', 2) as [string, string];
    let report: { testResults?: FileResult[] };
    try {
      report = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      console.log(`${label}: no report (the run ended before it wrote one)`);
      continue;
    }
    const failures = failuresOf(report);
    if (failures.length > 0) console.log(`${label}: ${failures.length} failed\n${failures.join('\n')}`);
  }
}
