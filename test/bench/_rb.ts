import { measureRedirect } from './redirect.ts';
import { bundleSim } from './bundle.ts';
import { formatTable, type Row } from './stats.ts';
const rows: Row[] = [];
const b = await bundleSim();
await measureRedirect(rows, b.file);
console.log(formatTable(rows));
process.exit(0);
