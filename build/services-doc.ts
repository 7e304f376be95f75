// Rewrites the generated parts of docs/services.md (`<!-- generated: NAME -->` … `<!-- end
// generated -->`) from the control block tables: `npx tsx build/services-doc.ts` after a table
// changed. device/model/blocks/describe.test.ts fails while the page and the tables differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { blockMarkdown, errorsMarkdown } from '../device/model/blocks/describe.ts';
import { CONTROL_BLOCKS } from '../device/model/blocks/index.ts';

const file = new URL('../docs/services.md', import.meta.url);
const parts: Record<string, string> = { errors: errorsMarkdown(), ...Object.fromEntries(CONTROL_BLOCKS.map((b) => [b.service, blockMarkdown(b)])) };
const page = readFileSync(file, 'utf8').replace(/<!-- generated: (\w+) -->\n[\s\S]*?\n<!-- end generated -->/g, (whole, name: string) =>
  parts[name] === undefined ? whole : `<!-- generated: ${name} -->\n${parts[name]}\n<!-- end generated -->`,
);
writeFileSync(file, page);
