// One run of the HTTP client engine: one version of the saved pew_httpc and pew (the poll, queue
// and back-off of service-runtime/queue-run.ts). A request (method, path appended to server_addr,
// body from PLC memory or the data logger's newest file) becomes a queued job; the answer's body (cut to the
// PLC's area), length and status code are written back. docs/services.md.
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import { errorOfFailure, type ServiceErrorName } from '../model/blocks/convention.ts';
import { HTTP_ANSWER_MAX, HTTP_BLOCK, HTTP_BODY_LOGFILE, HTTP_BODY_MAX, HTTP_METHODS, HTTP_PATH_MAX } from '../model/blocks/httpc.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import { loggerFiles } from '../service-runtime/log-files.ts';
import { RequestFault } from '../service-runtime/plc-text.ts';
import { type JobEnd, QueueRun, type QueueRunDeps, type QueueShared } from '../service-runtime/queue-run.ts';
import { drivers } from '../services/drivers.ts';
import { httpDispatcher, httpTrust, statusFailure } from '../services/http-test.ts';
import { classify } from '../services/test-run.ts';
import { requestHeaders } from './headers.ts';

export const HTTP_USER = 'httpc';
export const LOGFILE_BODY_MAX = 1024 * 1024; // a log file sent as a body

export interface HttpJob {
  method: string;
  path: string;
  /** body from PLC memory, base64 */
  body?: string;
  /** body: this log file's content at send time */
  logfile?: string;
  answerAddr: number;
  answerSize: number;
  /** the target the request was made for (service-runtime/job-targets.ts) */
  target?: string;
}

export const isHttpJob = (v: unknown): v is HttpJob => {
  const j = v as Partial<HttpJob> | null;
  return (
    typeof j === 'object' &&
    j !== null &&
    typeof j.method === 'string' &&
    typeof j.path === 'string' &&
    typeof j.answerAddr === 'number' &&
    typeof j.answerSize === 'number' &&
    (j.target === undefined || typeof j.target === 'string')
  );
};

export type HttpCounter = 'requests';

export interface HttpShared extends QueueShared<HttpJob, HttpCounter> {
  statusCode: number;
  answerLen: number;
}

export interface HttpRunDeps extends QueueRunDeps {
  store: ConfigStore;
  hw: Hw;
  dataDir: string;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The error code of a request that got no answer from the server, and whether it waits in the
 * queue for the peer: a proxy's refusal of the tunnel (407: its login; another status: refused)
 * and a TLS failure end the request; an unreachable, silent or unknown peer keeps it waiting.
 */
export function requestFailure(e: unknown): { code: Exclude<ServiceErrorName, 'none'>; wait: boolean } {
  const proxy = /^Proxy response \((\d{3})\)/.exec(errorText(e));
  if (proxy) return { code: proxy[1] === '407' ? 'auth_failed' : 'server_refused', wait: false };
  const failure = classify(e);
  const code = errorOfFailure(failure.reason);
  if (code === 'tls' || code === 'auth_failed') return { code, wait: false };
  return { code: code === 'none' || code === 'server_refused' ? 'other' : code, wait: true };
}

export class HttpRun extends QueueRun<HttpJob, HttpCounter> {
  protected readonly doneCounter = 'requests';
  private dispatcher: Dispatcher | undefined;

  constructor(
    private readonly deps: HttpRunDeps,
    private readonly http: HttpShared,
    readonly h: Httpc,
    pew: Pew,
  ) {
    super(deps, http, HTTP_BLOCK, h.plc_control_dt, h.plc_poll, pew, HTTP_USER);
  }

  async open(): Promise<void> {
    const url = new URL(this.h.server_addr);
    this.dispatcher = await httpDispatcher(this.h, url.hostname.replace(/^\[|\]$/g, ''), await httpTrust(this.h, this.deps.dataDir));
    this.start();
  }

  override async stop(): Promise<void> {
    const stopping = super.stop();
    // destroy, not close: a request that hangs must not hold the save back
    await this.dispatcher?.destroy().catch(() => undefined);
    await stopping;
  }

  protected extraWords(): Record<string, number> {
    const s = this.http;
    return {
      status_code: s.statusCode,
      answer_len: s.answerLen,
      queue_waiting: Math.min(s.queue.waiting, 0xffff),
      queue_dropped: Math.min(s.queue.dropped, 0xffff),
    };
  }

  protected async jobOf(b: Record<string, number>): Promise<HttpJob> {
    const method = HTTP_METHODS[b.request! & ~HTTP_BODY_LOGFILE];
    if (!method || (b.request! & ~0x1f) !== 0)
      throw new RequestFault('bad_request', `request ${b.request} is no method (1 GET, 2 POST, 3 PUT, 4 DELETE, +16 for a log file body)`);
    const fromLog = (b.request! & HTTP_BODY_LOGFILE) !== 0;
    if (fromLog && method !== 'POST' && method !== 'PUT') throw new RequestFault('bad_request', `${method} carries no body`);
    if (b.body_len! > HTTP_BODY_MAX) throw new RequestFault('too_large', `body of ${b.body_len} bytes, at most ${HTTP_BODY_MAX}`);
    if (b.answer_size! > HTTP_ANSWER_MAX) throw new RequestFault('too_large', `answer area of ${b.answer_size} bytes, at most ${HTTP_ANSWER_MAX}`);
    const path = Buffer.from(await this.io.string('path', b.path_addr!, b.path_len!, HTTP_PATH_MAX)).toString('latin1');
    if (/[\s\0]/.test(path)) throw new RequestFault('bad_string', `path "${path}" has a space or a control character`);
    const job: HttpJob = { method, path, answerAddr: b.answer_addr!, answerSize: b.answer_size! };
    if (fromLog) {
      // the data logger's newest file: never the script's CSV files in the same folder
      const [newest] = await loggerFiles(this.deps.store.get<Log>('pew_log'), await this.deps.hw.volumes()).catch((e: unknown) => {
        throw new RequestFault('local', errorText(e));
      });
      if (!newest) throw new RequestFault('local', 'the data logger has no log file to send');
      if (newest.bytes > LOGFILE_BODY_MAX)
        throw new RequestFault('too_large', `log file ${newest.name} has ${newest.bytes} bytes, at most ${LOGFILE_BODY_MAX}`);
      job.logfile = newest.path;
    } else if (method === 'POST' || method === 'PUT') {
      job.body = Buffer.from(await this.io.bytes('body', b.body_addr!, b.body_len!)).toString('base64');
    }
    return job;
  }

  protected async send(job: HttpJob): Promise<JobEnd | undefined> {
    const { request } = await drivers.undici();
    const url = new URL(this.h.server_addr.replace(/\/$/, '') + (job.path.startsWith('/') || job.path === '' ? job.path : `/${job.path}`));
    let body: Buffer | undefined;
    try {
      body = job.logfile ? await readFile(job.logfile) : job.body !== undefined ? Buffer.from(job.body, 'base64') : undefined;
    } catch (e) {
      return this.answer(job, 0, undefined, { code: 'local', message: errorText(e) }); // a log file gone since the request
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: job.method as Dispatcher.HttpMethod,
        dispatcher: this.dispatcher!,
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
        headers: requestHeaders(this.h, 'pew-http-client', !body ? 'none' : job.logfile ? 'logfile' : 'plc'),
        ...(body ? { body } : {}),
      });
    } catch (e) {
      const { code, wait } = requestFailure(e);
      // the server or proxy cannot be reached now: the request waits in the queue; a refused
      // certificate or proxy login would be refused again, so the request ends with its error
      return wait ? this.notDelivered(code, errorText(e)) : this.answer(job, 0, undefined, { code, message: errorText(e) });
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
    return this.answer(
      job,
      res.statusCode,
      { data: Buffer.concat(chunks), total },
      failure ? { code: code === 'none' ? 'other' : code, message: line } : undefined,
    );
  }

  /** Writes the answer body into the PLC's area; the status words follow once the job is acknowledged. */
  private async answer(job: HttpJob, status: number, answer: { data: Buffer; total: number } | undefined, error: JobEnd['error']): Promise<JobEnd> {
    this.http.statusCode = status;
    this.http.answerLen = Math.min(answer?.total ?? 0, 0xffff);
    try {
      if (answer && job.answerSize > 0) await this.io.writeBytes('answer area', job.answerAddr, answer.data, job.answerSize);
    } catch (e) {
      this.deps.log.warn('http answer cannot be written into the PLC', { error: errorText(e) });
      if (e instanceof RequestFault && !error) return { error: { code: e.code, message: e.message } };
    }
    // an answer with a status is the request's result (in the PLC): no dead letter
    return error ? { error, ...(status > 0 ? { answered: true } : {}) } : {};
  }
}
