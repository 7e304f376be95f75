// One run of the e-mail engine: one version of the saved pew_email and pew (the poll, queue and
// back-off of service-runtime/queue-run.ts). A request becomes a mail to the configured
// recipients from the configured sender, with the section's subject or the text's first line,
// the text from PLC memory, and with store_send on the newest file of each of the logger's log
// files attached. SMTP with implicit TLS or STARTTLS, port 0 autodetected (spec §5), POP3 or IMAP
// before SMTP as emailmode asks. A server that cannot be reached keeps the mail queued; a refused
// login, sender or recipient ends it with its error code. With the section's SOCKS proxy set, every
// connection (SMTP, POP3/IMAP) goes through it; a proxy that cannot be reached keeps the mail queued
// like a server that cannot be reached, its message naming the proxy. docs/services.md.
import { basename } from 'node:path';
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import { errorOfFailure, type ServiceErrorName } from '../model/blocks/convention.ts';
import { EMAIL_BLOCK, MAIL_SUBJECT_FROM_TEXT, MAIL_TEXT_MAX } from '../model/blocks/email.ts';
import type { Email } from '../model/sections/email.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import { newestLogFiles, newestOfEachLogFile } from '../service-runtime/log-files.ts';
import { RequestFault } from '../service-runtime/plc-text.ts';
import { type JobEnd, QueueRun, type QueueRunDeps, type QueueShared } from '../service-runtime/queue-run.ts';
import { firstOpen, mailTrust, smtpCandidates, smtpTransport } from '../services/mail-test.ts';
import { connectorOf, socksProxyOf } from '../services/socks-proxy.ts';
import { classify } from '../services/test-run.ts';
import { loginBeforeSmtp } from './before-smtp.ts';

export const MAIL_USER = 'email';
/** the line a mail gets when store_send is on but no log file can be attached */
export const ATTACH_NOTE = 'no log file attached';

export interface MailJob {
  subject: string;
  text: string;
  /** log files to attach, read at send time */
  attach: string[];
  /** the target the mail was made for (service-runtime/job-targets.ts) */
  target?: string;
}

export const isMailJob = (v: unknown): v is MailJob => {
  const j = v as Partial<MailJob> | null;
  return (
    typeof j === 'object' &&
    j !== null &&
    typeof j.subject === 'string' &&
    typeof j.text === 'string' &&
    Array.isArray(j.attach) &&
    j.attach.every((a) => typeof a === 'string') &&
    (j.target === undefined || typeof j.target === 'string')
  );
};

export type MailCounter = 'sent';
export type MailShared = QueueShared<MailJob, MailCounter>;

export interface MailRunDeps extends QueueRunDeps {
  store: ConfigStore;
  hw: Hw;
  dataDir: string;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** UTF-8 when the bytes are, else Latin-1 (a PLC's 8-bit text). */
function textOf(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}

/** The addresses of `<a@b>, <c@d>` (spec §5). */
export const addressesOf = (list: string): string[] => [...list.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!);

export class MailRun extends QueueRun<MailJob, MailCounter> {
  protected readonly doneCounter = 'sent';

  constructor(
    private readonly deps: MailRunDeps,
    shared: MailShared,
    readonly e: Email,
    pew: Pew,
  ) {
    super(deps, shared, EMAIL_BLOCK, e.plc_control_dt, e.plc_poll, pew, MAIL_USER);
  }

  protected extraWords(): Record<string, number> {
    return { queue_waiting: Math.min(this.shared.queue.waiting, 0xffff) };
  }

  protected async jobOf(b: Record<string, number>): Promise<MailJob> {
    const kind = b.request!;
    if (kind !== 1 && kind !== MAIL_SUBJECT_FROM_TEXT) {
      throw new RequestFault('bad_request', `request ${kind} is not a mail request (1, 2; log files are attached when store_send is on)`);
    }
    let text = textOf(await this.io.string('text', b.text_addr!, b.text_len!, MAIL_TEXT_MAX));
    let subject = this.e.subject;
    if (kind === MAIL_SUBJECT_FROM_TEXT) {
      const end = text.indexOf('\n');
      subject = (end < 0 ? text : text.slice(0, end)).replace(/\r$/, '');
      text = end < 0 ? '' : text.slice(end + 1);
    }
    let attach: string[] = [];
    let missing = '';
    if (this.e.store_send) {
      const log = this.deps.store.get<Log>('pew_log');
      try {
        const volumes = await this.deps.hw.volumes();
        // the newest file of each log file of the logger (log-files.ts: by the names of its files)
        attach = (
          log.log_def.length === 0
            ? await newestLogFiles(log, volumes, 1) // no log file defined (any more): the newest file of the folder
            : await newestOfEachLogFile(log, volumes)
        ).map((f) => f.path);
      } catch (err) {
        missing = `the log files cannot be read: ${errorText(err)}`;
      }
      if (!missing && attach.length === 0) missing = 'there is no log file yet';
      if (missing) {
        // the mail still goes (it may be the alarm the PLC raises); its reader learns why it has no file
        this.deps.log.warn('email: no log file attached', { reason: missing });
        text = `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n(${ATTACH_NOTE}: ${missing})\n`;
      }
    }
    return { subject, text, attach };
  }

  protected async send(job: MailJob): Promise<JobEnd | undefined> {
    const e = this.e;
    const trust = await mailTrust(e, this.deps.dataDir);
    // the server cannot be reached now: the mail waits in the queue (nothing is lost on the way out)
    const keep = (code: Exclude<ServiceErrorName, 'none'>, message: string): JobEnd | undefined => this.notDelivered(code, message);
    try {
      if (e.emailmode !== 0) await loginBeforeSmtp(e, trust);
    } catch (err) {
      const code = errorOfFailure(classify(err).reason);
      return code === 'auth_failed' ? { error: { code, message: errorText(err) } } : keep(code === 'none' ? 'other' : code, errorText(err));
    }
    let port: number;
    try {
      port = await firstOpen(e.server_smtp, e.server_smtp_port ? [e.server_smtp_port] : smtpCandidates(e.transfermode_ssl), connectorOf(socksProxyOf(e)));
    } catch (err) {
      const code = errorOfFailure(classify(err).reason);
      return keep(code === 'none' ? 'other' : code, errorText(err));
    }
    const transport = await smtpTransport(e, trust, port, { login: e.emailmode === 0, ms: { connect: 15_000, socket: 30_000 }, name: 'pew-mail' });
    try {
      await transport.sendMail({
        from: e.sender.replace(/^<|>$/g, ''),
        to: addressesOf(e.recipients),
        subject: job.subject,
        text: job.text,
        attachments: job.attach.map((path) => ({ filename: basename(path), path })),
      });
      return {};
    } catch (err) {
      const x = err as { code?: string; response?: string; message?: string };
      if (x.code === 'EAUTH') return { error: { code: 'auth_failed', message: x.response || errorText(err) } };
      if (x.code === 'EENVELOPE' || x.code === 'EMESSAGE') return { error: { code: 'server_refused', message: x.response || errorText(err) } };
      if (x.code === 'ENOENT' || x.code === 'EACCES') return { error: { code: 'local', message: errorText(err) } };
      const code = x.code === 'ETLS' ? 'tls' : errorOfFailure(classify(err).reason);
      return keep(code === 'none' || code === 'server_refused' ? 'other' : code, x.response || errorText(err));
    } finally {
      transport.close();
    }
  }
}
