// Global setup of the e2e project: builds the console once (build/web.ts, minified as in production)
// into a temp folder that every test file's daemon serves; removed after the run.
// E2E_WEB_DIR=<folder> tests an already built console instead (e.g. `npm run build` → dist/web).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWeb } from '../../build/web.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the built console (index.html, assets/) */
    webDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.E2E_WEB_DIR;
  if (given) {
    project.provide('webDir', given);
    return async () => {};
  }
  const tmp = await mkdtemp(join(tmpdir(), 'e2e-console-'));
  const webDir = join(tmp, 'web');
  const report = await buildWeb({ outDir: webDir });
  if (!report.files.some((f) => f.file === 'index.html')) throw new Error(`the console build wrote no index.html into ${webDir}`);
  project.provide('webDir', webDir);
  return () => rm(tmp, { recursive: true, force: true });
}
