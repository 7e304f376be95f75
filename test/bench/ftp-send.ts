// FTP send figures of `npm run bench` (part "ftp send"): one attempt of the FTP send
// (device/ftp/send.ts: the file choice of local-files.ts, login, upload of every file, and the
// rename of each one after its upload) against ftp-srv on 127.0.0.1, median of 3, side by side with
// bare basic-ftp uploading the same files over one login in the same run (the floor). Two loads:
// 50 files of 16 KB (per-file overhead) and one file of 16 MB (throughput). Plain FTP, passive, binary.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as FtpClient } from 'basic-ftp';
import { FtpSrv } from 'ftp-srv';
import { selectFiles, sentName } from '../../device/ftp/local-files.ts';
import { sendAttempt } from '../../device/ftp/send.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Ftpc, pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { median, type Row } from './stats.ts';

const RUNS = 3;
const USER = 'plc';
const PASSWORD = 'Secret-1';
const EXT = 'bak';
const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
const noLog = { enable_log: false, midnight_to_daybefore: false, log_def: [] };

/** Gives the renamed files their names back, so every run sends the same files. */
async function unrename(dir: string): Promise<void> {
  for (const n of await readdir(dir)) if (n.endsWith(`.${EXT}`)) await rename(join(dir, n), join(dir, n.replace(/\.bak$/, '.dat')));
}

export async function measureFtpSend(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-ftp-'));
  const root = join(work, 'root');
  await mkdir(join(root, 'in'), { recursive: true });
  const port = await freePort();
  const srv = new FtpSrv({ url: `ftp://${LOOPBACK}:${port}`, pasv_url: LOOPBACK, anonymous: false, log: quiet as never });
  srv.on('login', ({ username, password }, resolve, reject) =>
    username === USER && password === PASSWORD ? resolve({ root }) : reject(new Error('Login incorrect')),
  );
  await srv.listen();
  const f: Ftpc = {
    ...defaultsOf(pew_ftpc),
    enable_ftp: true,
    server_ip: LOOPBACK,
    server_port: port,
    server_user: USER,
    server_password: PASSWORD,
    server_dir: 'in',
    local_file: 'f',
  };
  try {
    for (const load of [
      { name: '50 files of 16 KB', files: 50, bytes: 16 * 1024 },
      { name: '1 file of 16 MB', files: 1, bytes: 16 * 1024 * 1024 },
    ]) {
      const dir = join(work, `local-${load.files}`);
      await mkdir(dir);
      for (let i = 0; i < load.files; i++) await writeFile(join(dir, `f${String(i).padStart(3, '0')}.dat`), randomBytes(load.bytes));
      const ours: number[] = [];
      const bare: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        let t0 = performance.now();
        const pick = await selectFiles(dir, f, { file_ext_replacement: EXT }, { now: Date.now(), log: noLog });
        const r = await sendAttempt(f, pick.send, { dataDir: work, folder: dir, ext: EXT });
        if (r.error || r.sent.length !== load.files) throw new Error(`send: ${r.error?.code} ${r.error?.message}`);
        ours.push(performance.now() - t0);
        await unrename(dir);

        t0 = performance.now();
        const c = new FtpClient();
        await c.access({ host: LOOPBACK, port, user: USER, password: PASSWORD });
        await c.cd('in');
        for (const n of (await readdir(dir)).sort()) {
          await c.uploadFrom(join(dir, n), n);
          await rename(join(dir, n), join(dir, sentName(n, EXT))); // the same rename, so only the engine's extra work differs
        }
        c.close();
        bare.push(performance.now() - t0);
        await unrename(dir);
      }
      const mb = (load.files * load.bytes) / (1024 * 1024);
      rows.push({
        figure: `ftp send, ${load.name} (ms)`,
        ours: median(ours),
        baseline: median(bare),
        note: `bare basic-ftp: upload + rename; ours ${(mb / (median(ours) / 1000)).toFixed(1)} MB/s`,
      });
    }
  } finally {
    await srv.close();
    await rm(work, { recursive: true, force: true });
  }
}
