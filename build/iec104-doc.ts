// Rewrites the generated part of docs/iec104.md (`<!-- generated: interop -->` … `<!-- end
// generated -->`) from the type table and the pew_60870 schema: `npx tsx build/iec104-doc.ts` after
// either changed. device/iec104/interop.test.ts fails while the page and the tables differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { interopMarkdown } from '../device/iec104/interop.ts';

const file = new URL('../docs/iec104.md', import.meta.url);
const page = readFileSync(file, 'utf8').replace(
  /<!-- generated: interop -->\n[\s\S]*?\n<!-- end generated -->/,
  () => `<!-- generated: interop -->\n${interopMarkdown()}\n<!-- end generated -->`,
);
writeFileSync(file, page);
