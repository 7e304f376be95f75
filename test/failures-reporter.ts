// A vitest reporter for `npm test`: writes, for each test file, its time and its failed tests with
// their messages, to the JSON file named by TEST_REPORT, for test/failures.ts to print at the end
// of the run. vitest's own JSON report keeps only an error's stack, and the stack of a timeout
// starts with the internal "Error: STACK_TRACE_ERROR" instead of "Test timed out in … ms".
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface TestFailure {
  name: string;
  /** the error's name and message, then the stack's first lines that point into the tree */
  message: string;
}

export interface FileReport {
  file: string;
  /** wall time of the file, set-up and tests */
  ms: number;
  state: string;
  tests: number;
  failed: TestFailure[];
  /** errors of the file itself (it did not load, a hook outside a test failed) */
  errors: string[];
}

export interface RunReport {
  files: FileReport[];
}

interface ErrorLike {
  name?: string;
  message?: string;
  stack?: string;
}

/** "Name: message" and the stack lines below it that point into the tree (not node_modules or node:), relative to `root`. */
export function errorText(e: ErrorLike, root = process.cwd()): string {
  const head = `${e.name ?? 'Error'}: ${e.message ?? ''}`.trimEnd();
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at .*\//.test(l) && !l.includes('node_modules') && !l.includes('node:'))
    .slice(0, 3)
    .map((l) => l.trim().replace(`file://${root}/`, '').replace(`${root}/`, ''));
  return [head, ...frames].join('\n');
}

export function fileReport(m: TestModule, root = process.cwd()): FileReport {
  const failed: TestFailure[] = [];
  let tests = 0;
  for (const t of m.children.allTests()) {
    tests++;
    const r = t.result();
    if (r.state === 'failed') failed.push({ name: t.fullName, message: (r.errors ?? []).map((e) => errorText(e, root)).join('\n') });
  }
  return {
    file: relative(root, m.moduleId),
    ms: Math.round(m.diagnostic().duration),
    state: m.state(),
    tests,
    failed,
    errors: m.errors().map((e) => errorText(e, root)),
  };
}

export default class FailuresReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const out = process.env.TEST_REPORT;
    if (!out) return;
    const report: RunReport = { files: modules.map((m) => fileReport(m)) };
    writeFileSync(out, JSON.stringify(report));
  }
}
