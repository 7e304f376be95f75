// Test support: reads Prometheus' text exposition format (version 0.0.4) strictly, the way the
// tests of GET /metrics look at it: every line a `# HELP`, a `# TYPE` or a sample of the family
// named last, label values unescaped. Anything else throws, naming the line.

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedFamily {
  name: string;
  help: string;
  type: string;
  samples: ParsedSample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const PAIR = new RegExp(`^(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"(,|$)`);

const unescapeValue = (s: string) => s.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

function labelsOf(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  let rest = text;
  while (rest) {
    const m = PAIR.exec(rest);
    if (!m) throw new Error(`bad labels in: ${line}`);
    if (Object.hasOwn(out, m[1]!)) throw new Error(`label ${m[1]} twice in: ${line}`);
    out[m[1]!] = unescapeValue(m[2]!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

function numberOf(text: string, line: string): number {
  if (text === 'NaN') return Number.NaN;
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  const n = Number(text);
  if (!/^-?\d/.test(text) || Number.isNaN(n)) throw new Error(`bad value in: ${line}`);
  return n;
}

export function parseExposition(text: string): ParsedFamily[] {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition does not end with a line feed');
  const families: ParsedFamily[] = [];
  let current: ParsedFamily | undefined;
  for (const line of text.split('\n').slice(0, -1)) {
    const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    if (help) {
      if (families.some((f) => f.name === help[1])) throw new Error(`family ${help[1]} twice`);
      current = { name: help[1]!, help: help[2]!.replace(/\\([\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c)), type: '', samples: [] };
      families.push(current);
      continue;
    }
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      if (!current || current.name !== type[1] || current.type || current.samples.length) throw new Error(`TYPE out of place: ${line}`);
      current.type = type[2]!;
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a line of the format: ${line}`);
    if (!current?.type || m[1] !== current.name) throw new Error(`sample without its HELP and TYPE: ${line}`);
    current.samples.push({ name: m[1]!, labels: labelsOf(m[2] ?? '', line), value: numberOf(m[3]!, line) });
  }
  return families;
}

/** the value of the one sample of `name` whose labels include `labels` */
export function sampleValue(families: readonly ParsedFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const f = families.find((x) => x.name === name);
  const hits = f?.samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? [];
  if (hits.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${hits.length} samples`);
  return hits[0]?.value;
}
