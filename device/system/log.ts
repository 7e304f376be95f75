// The daemon log: JSON lines to a sink (stderr by default) and the most recent entries kept in
// memory for the system log view. Callers never pass secrets in fields.
import type { Clock } from '../../hw/types.ts';

export type Level = 'info' | 'warn' | 'error';
export interface LogEntry {
  time: string;
  level: Level;
  msg: string;
  fields?: Record<string, unknown>;
}

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  recent(): LogEntry[];
}

export function createLogger(opts: { clock: Clock; sink?: ((line: string) => void) | null; capacity?: number }): Logger {
  const capacity = opts.capacity ?? 1000;
  const sink = opts.sink === undefined ? (line: string) => process.stderr.write(`${line}\n`) : opts.sink;
  const ring: LogEntry[] = [];
  const write = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    const entry: LogEntry = { time: new Date(opts.clock.now()).toISOString(), level, msg, ...(fields ? { fields } : {}) };
    ring.push(entry);
    if (ring.length > capacity) ring.shift();
    sink?.(JSON.stringify(entry));
  };
  return { info: write('info'), warn: write('warn'), error: write('error'), recent: () => ring.slice() };
}
