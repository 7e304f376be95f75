// Only the menu moves and the longest tasks of `npm run bench -- pages` (test/bench/pages.ts), without
// its deep links: `npm run bench -- moves` (10 consoles), or while developing
// `npx tsx test/bench/pages-moves.ts 3` (3 consoles) for a table in a minute or two.
import { measurePages } from './pages.ts';
import { formatTable, type Row } from './stats.ts';

/** The rows of the menu moves and of /log's and /port's longest tasks, `rounds` consoles. */
export const measurePageMoves = (rows: Row[], rounds?: number): Promise<void> =>
  measurePages(rows, { runs: 0, routes: ['info'], ...(rounds ? { rounds } : {}) });

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Row[] = [];
  await measurePageMoves(rows, Number(process.argv[2] ?? 3));
  console.log(formatTable(rows));
}
