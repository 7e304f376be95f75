// Figures of the device image and the firmware update (docs/firmware.md), measured in one run:
//   - the image's size (the .zip, its daemon and web parts gzip) against the web assets alone;
//   - the time `npm run image` takes (console build, daemon bundle, manifest, signature, zip)
//     against the console build alone (`npm run build`);
//   - the time from the upload of a new image to the new version answering in the simulator under
//     its supervisor, against a cold start of the same supervisor to its first answer.
// The web budget is reported in the note, not enforced here (the test-only switch of build/image.ts):
// the bench measures, `npm run image` judges.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBudgets } from '../../build/budget.ts';
import { buildImage } from '../../build/image.ts';
import { buildWeb } from '../../build/web.ts';
import { newKeyPair } from '../../device/firmware/manifest.ts';
import { adminClient, makeRoot, readImage, startSupervisor, uploadImage, waitForVersion } from '../support/firmware.ts';
import type { Row } from './stats.ts';

const kb = (n: number) => n / 1024;

export async function measureImage(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-image-'));
  const { privatePem } = newKeyPair();
  let root: string | undefined;
  try {
    const w0 = performance.now();
    const web = await buildWeb({ outDir: join(work, 'web') });
    const webMs = performance.now() - w0;
    const first = await buildImage({ version: '1.5.0', outDir: join(work, 'a'), keyPem: privatePem, allowOverBudget: true });
    const second = await buildImage({ version: '1.5.1', outDir: join(work, 'b'), keyPem: privatePem, allowOverBudget: true });
    const over = checkBudgets(web, web.budgets);
    rows.push({
      figure: 'image .zip (KB)',
      ours: kb(second.zipBytes),
      baseline: kb(web.total.gzipBytes),
      note: `baseline: web assets gzip; daemon ${kb(second.daemon.bytes).toFixed(0)} KB, gzip ${kb(second.daemon.gzipBytes).toFixed(0)} KB`,
    });
    rows.push({
      figure: 'image web part gzip (KB)',
      ours: kb(second.web.total.gzipBytes),
      baseline: kb(second.web.budgets.totalGzip),
      note: `baseline: the web budget; first load ${kb(second.web.firstLoad.gzipBytes).toFixed(1)} KB${over.length ? '; OVER BUDGET' : ''}`,
    });
    rows.push({
      figure: 'npm run image (s)',
      ours: Math.min(first.ms, second.ms) / 1000,
      baseline: webMs / 1000,
      note: 'best of 2; baseline: the console build alone',
    });

    root = await makeRoot(privatePem);
    const c0 = performance.now();
    let sup = await startSupervisor(root, { image: first.zipFile });
    const coldMs = performance.now() - c0;
    const admin = await adminClient(sup.url);
    const { zip, md5 } = await readImage(second);
    const u0 = performance.now();
    const r = await uploadImage(admin, zip, md5);
    if (r.status !== 202) throw new Error(`the update was refused: ${JSON.stringify(r.body)}`);
    if (!(await waitForVersion(sup.url, '1.5.1', 120_000))) throw new Error('the new version did not answer');
    const updateMs = performance.now() - u0;
    await sup.stop();
    // the same root once more: the cold start of the supervisor with the new release
    const s0 = performance.now();
    sup = await startSupervisor(root, { port: sup.port });
    const restartMs = performance.now() - s0;
    await sup.stop();
    rows.push({
      figure: 'upload → new version answers (ms)',
      ours: updateMs,
      baseline: Math.min(coldMs, restartMs),
      note: 'simulator under its supervisor; baseline: supervisor cold start to first answer',
    });
  } finally {
    await rm(work, { recursive: true, force: true });
    if (root) await rm(root, { recursive: true, force: true });
  }
}
