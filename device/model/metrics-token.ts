// The scrape token of `GET /metrics` (docs/monitoring.md): the request that sets it and the
// answers, shared by the daemon (device/api/metrics-routes.ts) and the console's card on /users.
import * as v from 'valibot';
import { obj } from './fields.ts';
import { msg } from './issues.ts';

/** a token typed by hand: long enough not to be guessed, visible ASCII only (it travels in a header) */
export const METRICS_TOKEN_MIN = 16;
export const METRICS_TOKEN_MAX = 256;

export const metricsTokenSchema = v.pipe(
  v.string(msg('type', { expected: 'string' })),
  v.nonEmpty(msg('required')),
  v.minLength<string, number, string>(METRICS_TOKEN_MIN, msg('too_short', { min: METRICS_TOKEN_MIN })),
  v.maxLength<string, number, string>(METRICS_TOKEN_MAX, msg('too_long', { max: METRICS_TOKEN_MAX })),
  v.regex<string, string>(/^[\x21-\x7e]*$/, msg('invalid_characters')),
);

/** `POST /config/metrics_token`: the token to keep, or none for one the unit generates (and answers once). */
export const metricsTokenRequest = obj({ token: v.optional(metricsTokenSchema) });

/** `GET /config/metrics_token` and the answers of the changes: whether a token is set and since when (ISO time) */
export const metricsTokenStatusSchema = v.object({
  set: v.boolean(),
  since: v.optional(v.string()),
  /** only in the answer that generated it: the token itself, shown once */
  token: v.optional(v.string()),
});
export type MetricsTokenStatus = v.InferOutput<typeof metricsTokenStatusSchema>;

/** where the job keeps the token and the unit's certificate on the Prometheus server (docs/monitoring.md) */
export const SCRAPE_TOKEN_FILE = '/etc/prometheus/communicator-token';
export const SCRAPE_CA_FILE = '/etc/prometheus/communicator.crt';

/**
 * The Prometheus job for a unit at `target` (host:port of its console): the one docs/monitoring.md
 * shows and the card on /users offers to paste; a test runs it in a real Prometheus.
 */
export function scrapeConfig(target: string, https: boolean): string {
  const lines = [
    'scrape_configs:',
    '  - job_name: communicator',
    '    scrape_interval: 15s',
    `    scheme: ${https ? 'https' : 'http'}`,
    ...(https ? ['    tls_config:', `      ca_file: ${SCRAPE_CA_FILE}`] : []),
    '    authorization:',
    `      credentials_file: ${SCRAPE_TOKEN_FILE}`,
    '    static_configs:',
    `      - targets: ['${target}']`,
  ];
  return `${lines.join('\n')}\n`;
}
