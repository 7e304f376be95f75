// The tables as docs/services.md shows them: every generated part of that page equals what
// describe.ts makes from the tables now (a table changed without the page fails here; rewrite the
// page with `npx tsx build/services-doc.ts`).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockMarkdown, blocksJson, blockText, errorsMarkdown } from './describe.ts';
import { CONTROL_BLOCKS, SERVICE_ERROR } from './index.ts';
import { MQTT_BLOCK } from './mqtt.ts';

const page = readFileSync(new URL('../../../docs/services.md', import.meta.url), 'utf8');
const generated = (name: string) => new RegExp(`<!-- generated: ${name} -->\\n([\\s\\S]*?)\\n<!-- end generated -->`).exec(page)?.[1];

describe('control blocks described', () => {
  it("docs/services.md carries every block's table and the error codes as the tables say", () => {
    for (const b of CONTROL_BLOCKS) expect(generated(b.service), b.service).toBe(blockMarkdown(b));
    expect(generated('errors')).toBe(errorsMarkdown());
    expect(errorsMarkdown().split('\n')).toHaveLength(2 + Object.keys(SERVICE_ERROR).length);
  });

  it('text lines carry the absolute DT address of each word; JSON carries every word', () => {
    const lines = blockText(MQTT_BLOCK, 500);
    expect(lines).toHaveLength(MQTT_BLOCK.words.length);
    expect(lines[0]).toMatch(/^ {2}DT500 +\+0 +request +PLC → unit/);
    expect(lines.at(-1)).toMatch(/^ {2}DT533 +\+33 +sub_error +unit → PLC/);
    const json = JSON.parse(blocksJson(CONTROL_BLOCKS)) as { service: string; words: unknown[]; length: number }[];
    expect(json.map((b) => [b.service, b.words.length])).toEqual(CONTROL_BLOCKS.map((b) => [b.service, b.words.length]));
  });
});
