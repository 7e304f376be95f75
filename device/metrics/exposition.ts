// Prometheus' text exposition format, version 0.0.4 (`GET /metrics`, docs/monitoring.md): one
// `# HELP` and one `# TYPE` line per family, then its samples. Names follow the format's rules
// (`[a-zA-Z_:][a-zA-Z0-9_:]*`; labels `[a-zA-Z_][a-zA-Z0-9_]*`, never `__…`, which Prometheus
// keeps for itself), a counter's name ends in `_total`, label values and help texts are escaped as
// the format says. A name or label set the format does not allow is a fault of the code that made
// the family: it throws, and the unit tests render every family the daemon makes.

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge';
export type Labels = Readonly<Record<string, string | number>>;

export interface Sample {
  labels?: Labels;
  value: number;
}

export interface Family {
  name: string;
  type: MetricType;
  help: string;
  samples: readonly Sample[];
}

export const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** `# HELP` text: backslash and line feed escaped */
export const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** a label value: backslash, double quote and line feed escaped */
export const escapeLabelValue = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** a sample value as Go's ParseFloat reads it: NaN, +Inf, -Inf, else the number */
export function formatValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

function labelText(labels: Labels | undefined, family: string): string {
  if (!labels) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(labels)) {
    if (!LABEL_NAME.test(k) || k.startsWith('__')) throw new Error(`${family}: label name ${JSON.stringify(k)} is not allowed`);
    parts.push(`${k}="${escapeLabelValue(String(v))}"`);
  }
  return parts.length ? `{${parts.join(',')}}` : '';
}

/** The families as one exposition; a family without samples is left out. */
export function renderExposition(families: readonly Family[]): string {
  const out: string[] = [];
  const names = new Set<string>();
  for (const f of families) {
    if (!f.samples.length) continue;
    if (!METRIC_NAME.test(f.name)) throw new Error(`metric name ${JSON.stringify(f.name)} is not allowed`);
    if (f.type === 'counter' && !f.name.endsWith('_total')) throw new Error(`counter ${f.name} does not end in _total`);
    if (names.has(f.name)) throw new Error(`metric ${f.name} comes twice`);
    names.add(f.name);
    out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    const series = new Set<string>();
    for (const s of f.samples) {
      const labels = labelText(s.labels, f.name);
      if (series.has(labels)) throw new Error(`${f.name}${labels} comes twice`);
      series.add(labels);
      out.push(`${f.name}${labels} ${formatValue(s.value)}`);
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}
