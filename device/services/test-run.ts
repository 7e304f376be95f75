// Running a connection test step by step into a ServiceTestResult (device/model/servicetest.ts):
// each step is timed out, its error classified (errno, TLS and peer errors) and the peer's words
// kept. The service modules only say what each step does. Whoever runs a test inside
// watchTestSteps is told of each step as it starts and as it ends (the console shows them live).
import { AsyncLocalStorage } from 'node:async_hooks';
import { type ServiceTestResult, type TestFailure, type TestNote, type TestProgress, type TestStep, testNote } from '../model/servicetest.ts';

/**
 * Why a step failed: the reason, the message (the peer's or the system's words, or the daemon's own
 * account in English for the log and the API) and, where the daemon tells what happened in its own
 * words, the note the console words in its language instead of the message.
 */
export class StepFailure extends Error {
  constructor(
    readonly reason: TestFailure,
    message: string,
    readonly note?: TestNote,
  ) {
    super(message);
  }
}

/** A failure the daemon words itself: `note` for the console, its English text as the message. */
export const failureNote = (reason: TestFailure, note: TestNote, english: string): StepFailure => new StepFailure(reason, english, note);

/** The reason of a thrown error: node's errno codes and TLS errors, else the peer answered with an error. */
export function classify(e: unknown): StepFailure {
  if (e instanceof StepFailure) return e;
  const err = e as { code?: unknown; message?: unknown } | undefined;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' && err.message ? err.message : String(e);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new StepFailure('unknown_host', message);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new StepFailure('refused', message);
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return new StepFailure('timeout', message);
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME/.test(code)) return new StepFailure('tls_untrusted', message);
  if (/PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION|TLSV1_ALERT_PROTOCOL/.test(`${code} ${message}`)) return new StepFailure('tls_version', message);
  return new StepFailure('peer_error', message);
}

export interface TestRun {
  /** Runs one step within `ms` (default 10 s); a failure ends the test. */
  step<T>(name: TestStep, fn: () => Promise<T>, opts?: { ms?: number; note?: (v: T) => TestNote | undefined }): Promise<T>;
}

const watchers = new AsyncLocalStorage<(p: TestProgress) => void>();

/** Runs `fn`; every test it runs (runTest) tells `listener` of each step as it starts and ends. */
export const watchTestSteps = <T>(listener: (p: TestProgress) => void, fn: () => Promise<T>): Promise<T> => watchers.run(listener, fn);

/** Runs `body` as a test against `peer`; thrown failures become the result's failure. */
export async function runTest(peer: string, body: (t: TestRun) => Promise<void>, now: () => number = () => performance.now()): Promise<ServiceTestResult> {
  const t0 = now();
  const steps: ServiceTestResult['steps'] = [];
  const listener = watchers.getStore();
  // a listener's fault (a closed connection) never changes the test
  const tell = (p: TestProgress) => {
    try {
      listener?.(p);
    } catch {
      /* the watcher is gone */
    }
  };
  const done = (s: ServiceTestResult['steps'][number]) => {
    steps.push(s);
    tell({ step: s });
  };
  const run: TestRun = {
    async step(name, fn, opts = {}) {
      const ms = opts.ms ?? 10_000;
      let timer: ReturnType<typeof setTimeout> | undefined;
      tell({ running: name });
      try {
        const value = await Promise.race([
          fn(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(failureNote('timeout', testNote('no_answer_within', { ms }), `no answer within ${ms} ms`)), ms);
          }),
        ]);
        const note = opts.note?.(value);
        done({ step: name, ok: true, ...(note ? { note } : {}) });
        return value;
      } catch (e) {
        const f = classify(e);
        done({ step: name, ok: false });
        throw f;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  try {
    await body(run);
    return { ok: true, peer, ms: Math.round(now() - t0), steps };
  } catch (e) {
    const f = classify(e);
    return { ok: false, peer, ms: Math.round(now() - t0), steps, failure: { reason: f.reason, message: f.message, ...(f.note ? { note: f.note } : {}) } };
  }
}
