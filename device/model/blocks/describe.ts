// The control block tables as text for people and as JSON for programs: the library example zip
// (device/system/example-library.ts) and docs/services.md are made from these, so neither restates
// a layout by hand.
import { type BlockWord, type ControlBlock, SERVICE_ERROR, SERVICE_ERROR_TEXT, type ServiceErrorName } from './convention.ts';

const dirText = (w: BlockWord) => (w.dir === 'plc' ? 'PLC → unit' : 'unit → PLC');

function valuesText(w: BlockWord): string {
  return w.values
    ? Object.entries(w.values)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')
    : '';
}

/** One line a word, at the block's start `dt`, for the library's README.txt. */
export function blockText(block: ControlBlock, dt = block.defaultDt): string[] {
  return block.words.map((w) => {
    const at = `DT${dt + w.offset}`.padEnd(9);
    const off = `+${w.offset}`.padEnd(4);
    const values = valuesText(w);
    return `  ${at}${off}${w.name.padEnd(20)}${dirText(w).padEnd(12)}${w.meaning}${w.unit && w.unit !== 'DT' ? ` [${w.unit}]` : ''}${values ? `; ${values}` : ''}`;
  });
}

/** One line a word, each at `base`+offset (the IEC 104 buffers, whose starts are settings of a connection entry). */
export function wordsText(words: readonly BlockWord[], base: string): string[] {
  return words.map((w) => {
    const values = valuesText(w);
    return `  ${`${base}+${w.offset}`.padEnd(7)}${w.name.padEnd(20)}${dirText(w).padEnd(12)}${w.meaning}${values ? `; ${values}` : ''}`;
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The block as a markdown table (docs/services.md). */
export function blockMarkdown(block: ControlBlock): string {
  return wordsMarkdown(block.words, 'n');
}

/** Words as a markdown table, each at `base`+offset (the IEC 104 buffers use the same form). */
export function wordsMarkdown(words: readonly BlockWord[], base: string): string {
  return [
    '| word | name | written by | meaning | values |',
    '|---|---|---|---|---|',
    ...words.map(
      (w) =>
        `| ${base}+${w.offset} | \`${w.name}\` | ${dirText(w)} | ${cell(w.meaning)}${w.unit && w.unit !== 'DT' ? ` (${w.unit})` : ''} | ${cell(valuesText(w))} |`,
    ),
  ].join('\n');
}

/** Every block as JSON: service, section, length, default start, request values and words. */
export function blocksJson(blocks: readonly ControlBlock[]): string {
  return `${JSON.stringify(
    blocks.map((b) => ({
      service: b.service,
      section: b.section,
      field: 'plc_control_dt',
      length: b.length,
      default_dt: b.defaultDt,
      requests: b.requests,
      words: b.words.map((w) => ({
        offset: w.offset,
        name: w.name,
        written_by: w.dir,
        ...(w.role ? { role: w.role } : {}),
        meaning: w.meaning,
        ...(w.unit ? { unit: w.unit } : {}),
        ...(w.values ? { values: w.values } : {}),
      })),
    })),
    null,
    2,
  )}\n`;
}

/** The one error classification as a markdown table. */
export function errorsMarkdown(): string {
  return [
    '| code | name | meaning |',
    '|---|---|---|',
    ...Object.entries(SERVICE_ERROR).map(([k, n]) => `| ${n} | \`${k}\` | ${SERVICE_ERROR_TEXT[k as ServiceErrorName]} |`),
  ].join('\n');
}
