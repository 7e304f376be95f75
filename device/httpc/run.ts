// One run of the HTTP client engine: one version of the saved pew_httpc and pew. Every plc_poll
// seconds it reads the control block (device/model/blocks/httpc.ts); a request (method, path
// appended to server_addr, body from PLC memory or the newest log file) goes into the crash-safe
// queue before the request word is cleared; the queue is sent one request at a time, in order.
// The answer's status code, length and body (cut to the PLC's area) are written back. A server
// that cannot be reached keeps the request queued and is tried again after 1 s, 2 s … 30 s.
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Hw } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Logger } from '../system/log.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Log } from '../model/sections/log.ts';
import { HTTP_ANSWER_MAX, HTTP_BLOCK, HTTP_BODY_LOGFILE, HTTP_BODY_MAX, HTTP_METHODS, HTTP_PATH_MAX } from '../model/blocks/httpc.ts';
import { errorOfFailure, SERVICE_ERROR, STATE, type BlockState, type ServiceErrorName } from '../model/blocks/convention.ts';
import { BlockIo } from '../service-runtime/block-io.ts';
import { RequestFault } from '../service-runtime/plc-text.ts';
import type { JobQueue } from '../service-runtime/queue.ts';
import type { StatusBook } from '../service-runtime/status.ts';
import { newestLogFiles } from '../service-runtime/log-files.ts';
import { drivers } from '../services/drivers.ts';
import { httpDispatcher, httpTrust, statusFailure } from '../services/http-test.ts';
import { classify } from '../services/test-run.ts';

export const HTTP_USER = 'httpc';
export const LOGFILE_BODY_MAX = 1024 * 1024; // a log file sent as a body
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

export interface HttpJob {
  method: string;
  path: string;
  /** body from PLC memory, base64 */
  body?: string;
  /** body: this log file's content at send time */
  logfile?: string;
  answerAddr: number;
  answerSize: number;
}

export const isHttpJob = (v: unknown): v is HttpJob => {
  const j = v as Partial<HttpJob> | null;
  return typeof j === 'object' && j !== null && typeof j.method === 'string' && typeof j.path === 'string'
    && typeof j.answerAddr === 'number' && typeof j.answerSize === 'number';
};

export type HttpCounter = 'requests' | 'failed';

export interface HttpShared {
  book: StatusBook<HttpCounter>;
  queue: JobQueue<HttpJob>;
  state: BlockState;
  error: ServiceErrorName;
  counter: number;
  statusCode: number;
  answerLen: number;
}

export interface HttpRunDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  dataDir: string;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const basic = (user: string, password: string) => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

export class HttpRun {
  private active = true;
  private readonly io: BlockIo;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private polling: Promise<void> = Promise.resolve();
  private sending: Promise<void> | undefined;
  private retryAt = 0;
  private backoff = BACKOFF_FIRST_MS;
  private dispatcher: Dispatcher | undefined;

  constructor(private readonly deps: HttpRunDeps, private readonly shared: HttpShared, readonly h: Httpc, private readonly pew: Pew) {
    this.io = new BlockIo(() => this.link(), HTTP_BLOCK, h.plc_control_dt, HTTP_USER);
  }

  private link() {
    const link = this.deps.links.get(this.pew.interface_plc);
    if (!link) throw new Error('the service control interface is not enabled');
    return link;
  }

  async start(): Promise<void> {
    const url = new URL(this.h.server_addr);
    this.dispatcher = await httpDispatcher(this.h, url.hostname.replace(/^\[|\]$/g, ''), await httpTrust(this.h, this.deps.dataDir));
    this.shared.book.set(this.shared.queue.waiting > 0 ? 'waiting' : 'idle');
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.dispatcher?.destroy().catch(() => undefined);
    await this.sending;
    this.shared.book.set('off');
  }

  private schedule(ms = this.h.plc_poll * 1000): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => this.schedule());
    }, ms);
  }

  private async poll(): Promise<void> {
    try {
      const b = await this.io.read();
      if (!this.active) return;
      if (b.request !== 0) await this.take(b);
      this.kick();
      await this.writeStatus();
      this.shared.book.plc = '';
    } catch (e) {
      this.io.forget();
      if (this.shared.book.plc !== errorText(e)) this.deps.log.warn('http control block cannot be used', { error: errorText(e) });
      this.shared.book.plc = errorText(e);
    }
  }

  private async take(b: Record<string, number>): Promise<void> {
    try {
      const method = HTTP_METHODS[b.request! & ~HTTP_BODY_LOGFILE];
      if (!method || (b.request! & ~0x1f) !== 0) throw new RequestFault('bad_request', `request ${b.request} is no method (1 GET, 2 POST, 3 PUT, 4 DELETE, +16 for a log file body)`);
      const fromLog = (b.request! & HTTP_BODY_LOGFILE) !== 0;
      if (fromLog && method !== 'POST' && method !== 'PUT') throw new RequestFault('bad_request', `${method} carries no body`);
      if (b.body_len! > HTTP_BODY_MAX) throw new RequestFault('too_large', `body of ${b.body_len} bytes, at most ${HTTP_BODY_MAX}`);
      if (b.answer_size! > HTTP_ANSWER_MAX) throw new RequestFault('too_large', `answer area of ${b.answer_size} bytes, at most ${HTTP_ANSWER_MAX}`);
      const pathBytes = await this.io.string('path', b.path_addr!, b.path_len!, HTTP_PATH_MAX);
      const path = Buffer.from(pathBytes).toString('latin1');
      if (/[\s\0]/.test(path)) throw new RequestFault('bad_string', `path "${path}" has a space or a control character`);
      const job: HttpJob = { method, path, answerAddr: b.answer_addr!, answerSize: b.answer_size! };
      if (fromLog) {
        const [newest] = await newestLogFiles(this.deps.store.get<Log>('pew_log'), await this.deps.hw.volumes(), 1).catch((e: unknown) => { throw new RequestFault('local', errorText(e)); });
        if (!newest) throw new RequestFault('local', 'there is no log file to send');
        if (newest.bytes > LOGFILE_BODY_MAX) throw new RequestFault('too_large', `log file ${newest.name} has ${newest.bytes} bytes, at most ${LOGFILE_BODY_MAX}`);
        job.logfile = newest.path;
      } else if (method === 'POST' || method === 'PUT') {
        job.body = Buffer.from(await this.io.bytes('body', b.body_addr!, b.body_len!)).toString('base64');
      }
      const { dropped } = await this.shared.queue.push(job);
      if (dropped) this.shared.book.error('queue_full', `the queue held ${this.shared.queue.bound} requests: the oldest was dropped`);
      this.shared.state = 'running';
      await this.io.take();
    } catch (e) {
      if (!(e instanceof RequestFault)) throw e;
      this.finished('error', e.code);
      this.shared.book.count('failed');
      this.shared.book.error(e.code, e.message);
      this.deps.log.warn('http request refused', { code: e.code, error: e.message });
      await this.io.take();
    }
  }

  private finished(state: BlockState, error: ServiceErrorName): void {
    this.shared.state = state;
    this.shared.error = error;
    this.shared.counter = (this.shared.counter + 1) & 0xffff;
  }

  /** Starts sending the queue when nothing is being sent and no retry wait runs. */
  private kick(): void {
    if (this.sending || !this.active || this.shared.queue.waiting === 0 || performance.now() < this.retryAt) return;
    this.sending = this.sendAll().catch((e: unknown) => this.deps.log.error('http send failed', { error: errorText(e) })).finally(() => { this.sending = undefined; });
  }

  private async sendAll(): Promise<void> {
    while (this.active) {
      const [next] = this.shared.queue.head();
      if (!next) {
        this.shared.book.set('idle');
        return;
      }
      this.shared.book.set('running');
      const delivered = await this.send(next.job);
      if (!delivered) {
        this.shared.book.set('waiting');
        this.shared.state = 'waiting';
        this.retryAt = performance.now() + this.backoff;
        this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
        return;
      }
      this.backoff = BACKOFF_FIRST_MS;
      await this.shared.queue.ack(next.seq);
      // the answer is in the PLC already: the counter and status code come last
      await this.writeStatus().catch(() => this.io.forget());
    }
  }

  /** One request; false when the server could not be reached (the job stays queued). */
  private async send(job: HttpJob): Promise<boolean> {
    const { request } = await drivers.undici();
    const url = new URL(this.h.server_addr.replace(/\/$/, '') + (job.path.startsWith('/') || job.path === '' ? job.path : `/${job.path}`));
    let body: Buffer | undefined;
    try {
      body = job.logfile ? await readFile(job.logfile) : job.body !== undefined ? Buffer.from(job.body, 'base64') : undefined;
    } catch (e) {
      await this.result('error', 'local', errorText(e), 0, undefined, job);
      return true; // a log file gone since the request: nothing to wait for
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: job.method as Dispatcher.HttpMethod, dispatcher: this.dispatcher!, headersTimeout: 15_000, bodyTimeout: 15_000,
        headers: {
          'user-agent': 'pew-http-client',
          ...(body ? { 'content-type': job.logfile ? 'text/csv' : 'application/octet-stream' } : {}),
          ...(this.h.server_user ? { authorization: basic(this.h.server_user, this.h.server_password) } : {}),
        },
        ...(body ? { body } : {}),
      });
    } catch (e) {
      const code = errorOfFailure(classify(e).reason);
      const c = code === 'none' ? 'other' : code;
      this.shared.error = c;
      this.shared.book.error(c, errorText(e));
      this.deps.log.warn('http request not delivered, kept in the queue', { code: c, error: errorText(e) });
      return false;
    }
    // the answer, read up to what the PLC can take; its full length counted
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (kept < job.answerSize) {
        const part = chunk.subarray(0, job.answerSize - kept);
        chunks.push(part);
        kept += part.length;
      }
    }
    const line = `${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}`.trim();
    const failure = statusFailure(res.statusCode, line);
    const code = failure ? errorOfFailure(failure.reason) : 'none';
    await this.result(failure ? 'error' : 'done', code === 'none' && failure ? 'other' : code, line, res.statusCode, { data: Buffer.concat(chunks), total }, job);
    return true;
  }

  private async result(state: BlockState, code: ServiceErrorName, message: string, status: number, answer: { data: Buffer; total: number } | undefined, job: HttpJob): Promise<void> {
    this.shared.statusCode = status;
    this.shared.answerLen = Math.min(answer?.total ?? 0, 0xffff);
    this.finished(state, code);
    this.shared.book.count('requests');
    if (code === 'none') this.shared.book.success();
    else {
      this.shared.book.count('failed');
      this.shared.book.error(code, message);
    }
    try {
      if (answer && job.answerSize > 0) await this.io.writeBytes('answer area', job.answerAddr, answer.data, job.answerSize);
    } catch (e) {
      this.deps.log.warn('http answer cannot be written into the PLC', { error: errorText(e) });
      if (e instanceof RequestFault) this.shared.error = e.code;
    }
  }

  private async writeStatus(): Promise<void> {
    const s = this.shared;
    await this.io.write({
      state: STATE[s.state],
      error: SERVICE_ERROR[s.error],
      counter: s.counter,
      status_code: s.statusCode,
      answer_len: s.answerLen,
      queue_waiting: Math.min(s.queue.waiting, 0xffff),
      queue_dropped: Math.min(s.queue.dropped, 0xffff),
    });
  }
}
