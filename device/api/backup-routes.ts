// Backup and restore (spec §2 /backuprestore, §7 get_backup and restore, §8 "Failed to retrieve the
// backup file", "Failed to restore the settings", "The password is not correct"; security.md BK-1,
// AUD-1). The file format and the all-or-nothing restore live in device/backup.
//
// `POST /config/get_backup` with `{ password? }` streams the file. `POST /config/restore` takes the
// file as the raw body (at most RESTORE_MAX bytes) and the password in the `X-Backup-Password`
// header: a header, not the query, so that the password never lands in an access log or a history.
import type { Context } from 'hono';
import { createBackup } from '../backup/backup.ts';
import { BackupRefused } from '../backup/format.ts';
import { InvalidSettings, restoreBackup } from '../backup/restore.ts';
import { backupRequest } from '../model/backup.ts';
import { readBody } from './body.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

/** the largest backup file a restore accepts (device/backup/content.ts caps the content inside) */
export const RESTORE_MAX = 64 * 1024 * 1024;
export const PASSWORD_HEADER = 'x-backup-password';

const CHUNK = 64 * 1024;
function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += CHUNK)));
    },
  });
}

class TooLarge extends Error {}

async function readCapped(c: Context<Env>, max: number): Promise<Buffer> {
  if (Number(c.req.header('content-length') ?? 0) > max) throw new TooLarge();
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

async function restore(c: Context<Env>, ctx: DaemonContext): Promise<Response> {
  const audit = (detail: Record<string, unknown>) => ctx.audit.write({ action: 'restore', user: c.get('session')!.user, source: c.get('source'), detail });
  let file: Buffer;
  try {
    file = await readCapped(c, RESTORE_MAX);
  } catch (e) {
    if (!(e instanceof TooLarge)) throw e;
    await audit({ ok: false, reason: 'too_large' });
    c.header('Connection', 'close'); // the rest of the refused body may still be on the wire
    throw new ApiError(413, 'restore_failed', `Failed to restore the settings: the file exceeds ${RESTORE_MAX} bytes`, undefined, {
      reason: 'too_large',
      max: RESTORE_MAX,
    });
  }
  const password = c.req.header(PASSWORD_HEADER) || undefined;
  try {
    const r = await restoreBackup({ dataDir: ctx.dataDir, store: ctx.store, log: ctx.log, crossOptions: () => ctx.crossOptions() }, file, password);
    // the engines follow the saved sections; the active script file is written from script_file
    await ctx.scripts.settled().catch(() => undefined);
    await audit({ ok: true, format: r.header.format, app: r.header.app, created: r.header.created, sections: r.sections.length, files: r.files });
    return c.json({ ok: true, format: r.header.format, app: r.header.app, created: r.header.created, sections: r.sections, files: r.files });
  } catch (e) {
    if (!(e instanceof BackupRefused)) {
      await audit({ ok: false, reason: 'internal' });
      throw e;
    }
    await audit({ ok: false, reason: e.reason });
    if (e.reason === 'wrong_password') throw new ApiError(400, 'backup_wrong_password', 'The password is not correct');
    const issues = e instanceof InvalidSettings ? e.issues : undefined;
    throw new ApiError(e.reason === 'too_large' ? 413 : 400, 'restore_failed', `Failed to restore the settings: ${e.message}`, issues, { reason: e.reason });
  }
}

export const backupRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/get_backup',
    key: 'get_backup',
    access: 'admin',
    handler: async (c, ctx) => {
      const { password } = await readBody(c, backupRequest);
      const info = await ctx.hw.systemInfo();
      let made: Awaited<ReturnType<typeof createBackup>>;
      try {
        made = await createBackup({ dataDir: ctx.dataDir, store: ctx.store, hostname: info.os.hostname, now: ctx.hw.clock.now() }, password);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        throw new ApiError(500, 'backup_failed', `Failed to retrieve the backup file: ${e.message}`, undefined, { reason: 'too_large' });
      }
      await ctx.audit.write({
        action: 'backup',
        user: c.get('session')!.user,
        source: c.get('source'),
        detail: { protected: password !== undefined, files: made.files, bytes: made.bytes.length },
      });
      return c.body(streamOf(made.bytes), 200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(made.bytes.length),
        'Content-Disposition': `attachment; filename="${made.name}"`,
      });
    },
  }),
  route({ method: 'POST', path: '/config/restore', key: 'restore', access: 'admin', rawBody: true, handler: restore }),
];
