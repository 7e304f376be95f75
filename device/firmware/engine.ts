// The daemon's side of the firmware update (spec §4 upload → updating → rebooting; §5 firmware
// rules; security.md FW-1, AUD-1). The package is streamed to disk under its cap, checked in full
// (device/firmware/verify.ts) and only then unpacked into a new release folder; the supervisor that
// started this daemon (sim/supervisor.ts; docs/firmware.md) is then asked over its IPC channel to
// switch to it. The daemon never replaces itself. Without a supervisor (FIRMWARE_ROOT unset, no
// IPC channel) updates are unavailable and refused with that reason.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Versions } from '../../hw/types.ts';
import { checkUpdateFiles, FIRMWARE_MAX, type FirmwareQuery, type UpdateRefusal, type UpdateStatus } from '../model/firmware.ts';
import type { AuditLog } from '../system/audit.ts';
import type { Logger } from '../system/log.ts';
import { receiveFile, TooLarge } from '../system/upload-files.ts';
import { type InstallResult, layoutOf, readJson, unpackRelease, writeJson } from './layout.ts';
import { loadTrustedKeys } from './manifest.ts';
import { type CheckedImage, checkImage, UpdateRefused } from './verify.ts';

/** The message the daemon sends its supervisor to switch to a release folder. */
export interface InstallRequest {
  type: 'install';
  release: string;
  user?: string;
}

export interface Firmware {
  readonly available: boolean;
  status(): Promise<UpdateStatus>;
  /** Records a refusal found before the body is read (state failed, audit); the error to throw. */
  refuse(
    reason: UpdateRefusal,
    message: string,
    who: { user?: string; source?: string },
    name: string,
    params?: Record<string, string | number>,
  ): Promise<UpdateRefused>;
  /** Receives, checks and unpacks an update, then hands it to the supervisor; throws UpdateRefused. */
  update(body: ReadableStream<Uint8Array> | null, q: FirmwareQuery, who: { user?: string; source?: string }): Promise<{ version: string }>;
  close(): Promise<void>;
}

export interface FirmwareOptions {
  versions: Versions;
  log: Logger;
  audit: AuditLog;
  env?: NodeJS.ProcessEnv;
  /** the IPC channel to the supervisor (process.send when forked) */
  send?: (msg: InstallRequest) => boolean;
}

export async function startFirmware(opts: FirmwareOptions): Promise<Firmware> {
  const env = opts.env ?? process.env;
  const send = opts.send ?? (process.send ? (m: InstallRequest) => process.send!(m) : undefined);
  const root = env.FIRMWARE_ROOT;
  const trustDir = env.FIRMWARE_TRUST_DIR;
  const available = Boolean(root && trustDir && send);
  const l = root ? layoutOf(root) : undefined;
  let status: UpdateStatus = { state: 'idle', version: opts.versions.app, progress: 0 };
  let unpacking: Promise<void> | undefined;

  // the outcome of the last switch (written by the supervisor once the new daemon answered, or
  // after it brought the old one back) is shown by the status and audited once
  let lastSeen = '';
  const readLast = async (): Promise<void> => {
    if (!l) return;
    const last = await readJson<InstallResult>(l.result);
    if (!last || last.at === lastSeen) return;
    lastSeen = last.at;
    status = { ...status, last: { ok: last.ok, version: last.version, from: last.from, at: last.at } };
    if (!last.ok && status.state === 'idle') status = { ...status, state: 'failed', target: last.version, reason: 'start_failed' };
    if (!last.audited) {
      await writeJson(l.result, { ...last, audited: true });
      await opts.audit.write({ action: 'firmware_result', user: last.user, detail: { ok: last.ok, version: last.version, from: last.from } });
    }
  };
  await readLast();

  const refuse = async (
    reason: UpdateRefusal,
    message: string,
    who: { user?: string; source?: string },
    name: string,
    params?: Record<string, string | number>,
  ) => {
    status = { ...status, state: 'failed', progress: 0, reason };
    await opts.audit.write({ action: 'firmware_update', user: who.user, source: who.source, detail: { name, result: 'refused', reason, ...params } });
    opts.log.warn('firmware update refused', { name, reason, message });
    return new UpdateRefused(reason, message, params);
  };

  return {
    available,
    refuse: async (reason, message, who, name, params) => {
      // a running update keeps its state: the refused request changes nothing
      if (status.state === 'upload' || status.state === 'updating' || status.state === 'rebooting')
        return new UpdateRefused('busy', 'an update is running and cannot be cancelled');
      return refuse(reason, message, who, name, params);
    },
    async status() {
      if (status.state === 'idle' || status.state === 'failed') await readLast();
      return { ...status, available };
    },
    async update(body, q, who) {
      if (status.state === 'upload' || status.state === 'updating' || status.state === 'rebooting')
        throw new UpdateRefused('busy', 'an update is running and cannot be cancelled');
      if (!available || !l) throw await refuse('unavailable', 'this daemon runs without the supervisor that installs releases', who, q.name);
      const files = checkUpdateFiles({ name: q.name, size: 0 }, { name: q.md5_name, size: q.md5.length });
      if (files) throw await refuse(files.reason, `the files cannot be an update (${files.reason})`, who, q.name, files.params);

      status = { state: 'upload', version: opts.versions.app, progress: 0 };
      let checked: CheckedImage | undefined;
      const incoming = join(l.root, 'incoming', 'firmware.zip');
      try {
        const trusted = await loadTrustedKeys(trustDir!);
        await receiveFile(body, incoming, FIRMWARE_MAX, (bytes) => {
          checked = checkImage(bytes, q.md5, { trusted, running: opts.versions });
        });
      } catch (e) {
        if (e instanceof TooLarge) throw await refuse('too_large', `the package exceeds ${FIRMWARE_MAX} bytes`, who, q.name, { max: FIRMWARE_MAX });
        if (e instanceof UpdateRefused) throw await refuse(e.reason, e.message, who, q.name, e.params);
        status = { ...status, state: 'idle' };
        throw e;
      } finally {
        await rm(incoming, { force: true });
      }
      const image = checked!;
      const version = image.manifest.version;
      status = { state: 'updating', version: opts.versions.app, target: version, progress: 0 };
      await opts.audit.write({ action: 'firmware_update', user: who.user, source: who.source, detail: { name: q.name, result: 'accepted', version } });
      opts.log.info('firmware update accepted', { name: q.name, version });
      // the answer goes out now; the page follows the rest through get_update_status
      unpacking = unpackRelease(l, version, image.files, (f) => {
        status = { ...status, progress: Math.round(f * 100) };
      })
        .then(
          (release) => {
            status = { ...status, state: 'rebooting', progress: 100 };
            opts.log.info('firmware release unpacked; switching', { release });
            send!({ type: 'install', release, user: who.user });
          },
          async (e: Error) => {
            opts.log.error('firmware release could not be written', { error: e.message });
            status = { ...status, state: 'failed', progress: 0, reason: 'start_failed' };
            await opts.audit.write({ action: 'firmware_result', user: who.user, detail: { ok: false, version, error: e.message } });
          },
        )
        .finally(() => {
          unpacking = undefined;
        });
      return { version };
    },
    async close() {
      // a release being written is finished first (a daemon stopped halfway leaves only a hidden
      // folder, which the supervisor's next prune removes)
      await unpacking;
    },
  };
}
