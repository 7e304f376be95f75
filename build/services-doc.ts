// Rewrites the generated parts of docs/services.md and docs/iec104.md (`<!-- generated: NAME -->`
// … `<!-- end generated -->`) from the control block tables and the IEC 104 buffer tables: `npx tsx
// build/services-doc.ts` after a table changed. device/model/blocks/describe.test.ts and
// iec104.test.ts fail while the pages and the tables differ. Parts of other names are left alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { blockMarkdown, errorsMarkdown, wordsMarkdown } from '../device/model/blocks/describe.ts';
import { IEC_BUFFERS } from '../device/model/blocks/iec104.ts';
import { CONTROL_BLOCKS } from '../device/model/blocks/index.ts';

const parts: Record<string, string> = {
  errors: errorsMarkdown(),
  ...Object.fromEntries(CONTROL_BLOCKS.map((b) => [b.service, blockMarkdown(b)])),
  ...Object.fromEntries(IEC_BUFFERS.map((b) => [b.name, wordsMarkdown(b.words, b.base)])),
};
for (const name of ['services.md', 'iec104.md']) {
  const file = new URL(`../docs/${name}`, import.meta.url);
  const page = readFileSync(file, 'utf8').replace(/<!-- generated: (\w+) -->\n[\s\S]*?\n<!-- end generated -->/g, (whole, part: string) =>
    parts[part] === undefined ? whole : `<!-- generated: ${part} -->\n${parts[part]}\n<!-- end generated -->`,
  );
  writeFileSync(file, page);
}
