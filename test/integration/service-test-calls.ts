// The calls the connection-test suites make against their daemon: put a certificate where the
// section's test reads it, save a section, run the section's connection test, and the steps of a
// result in one line each.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { certPath } from '../../device/system/cert-files.ts';
import type { Client, TestDaemon } from '../support/daemon.ts';

/** `of` gives the suite's daemon and admin client once its beforeAll has started them. */
export function serviceTestCalls(of: () => { d: TestDaemon; admin: Client }) {
  return {
    async putCert(section: string, name: string, text: string): Promise<void> {
      const file = certPath(of().d.dataDir, section, name);
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, text);
    },
    async save(section: string, value: object): Promise<void> {
      const r = await of().admin.post(`/config/${section}`, value);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
    async runTest(section: string): Promise<ServiceTestResult> {
      const r = await of().admin.post(`/config/servicetest/${section}`, {});
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body as ServiceTestResult;
    },
  };
}

/** "connect:ok", "login:failed" … for each step of a result */
export const stepsOf = (r: { steps: { step: string; ok: boolean }[] }) => r.steps.map((s) => `${s.step}:${s.ok ? 'ok' : 'failed'}`);
