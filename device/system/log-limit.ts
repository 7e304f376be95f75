// Warnings that a network peer can cause, rate-limited (docs/hardening.md LOG-2): a peer that fails
// its TLS handshake 3,000 times, or makes one fault after another, must not fill the log and push
// every other entry out of the system log view. In each window (a minute), each source gets its
// first few warnings logged as they come, and all sources together at most a few dozen; the rest are
// counted, and when the window ends one summary line per message says how many were left out and
// from which sources (the most frequent first). Every listener with warnings of its peers logs them
// through one of these.

/** What the warnings go to: the daemon's Logger, or the simulator's stderr log. */
export interface WarnLog {
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface WarnLimits {
  /** warnings of one source logged as they come in each window */
  perSource: number;
  /** warnings of all sources logged as they come in each window */
  total: number;
  windowMs: number;
  /** sources told apart in a window (more are counted as `other`) */
  maxSources: number;
  /** sources named in a summary line */
  shown: number;
}

export const WARN_LIMITS: WarnLimits = { perSource: 3, total: 30, windowMs: 60_000, maxSources: 1000, shown: 5 };

export interface LimitedWarn {
  /** Logs `msg` for `source` (an address) unless its share of the window is used: then it is counted. */
  warn(source: string, msg: string, fields?: Record<string, unknown>): void;
  /** Ends the window now: the summary lines of what was left out (e.g. when the listener closes). */
  flush(): void;
}

const OTHER = 'other';

export function limitedWarn(log: WarnLog, limits: Partial<WarnLimits> = {}): LimitedWarn {
  const l = { ...WARN_LIMITS, ...limits };
  let logged = 0;
  const perSource = new Map<string, number>();
  /** per message: the warnings left out, by source */
  const leftOut = new Map<string, Map<string, number>>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const [msg, bySource] of leftOut) {
      const sorted = [...bySource].sort((a, b) => b[1] - a[1]);
      const suppressed = sorted.reduce((n, [, k]) => n + k, 0);
      log.warn(`${msg} (repeated)`, {
        suppressed,
        sources: sorted.length,
        top: sorted.slice(0, l.shown).map(([source, count]) => ({ source, count })),
        windowS: l.windowMs / 1000,
      });
    }
    leftOut.clear();
    perSource.clear();
    logged = 0;
  };

  return {
    warn(source, msg, fields) {
      if (timer === undefined) {
        timer = setTimeout(flush, l.windowMs);
        timer.unref?.();
      }
      const key = perSource.has(source) || perSource.size < l.maxSources ? source : OTHER;
      const n = (perSource.get(key) ?? 0) + 1;
      perSource.set(key, n);
      if (n <= l.perSource && logged < l.total) {
        logged++;
        log.warn(msg, fields);
        return;
      }
      let bySource = leftOut.get(msg);
      if (!bySource) leftOut.set(msg, (bySource = new Map()));
      bySource.set(key, (bySource.get(key) ?? 0) + 1);
    },
    flush,
  };
}
