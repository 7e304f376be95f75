// The login flood of `npm run bench -- security` at full size (security.md AUTH-6, AUTH-8, DOS-1;
// issue 16 item 2, issue 34 item 2): 150 concurrent unauthenticated logins for 60 s, each from a
// new loopback address, while the data logger records every second, a logged-in admin asks the
// console's GETs and the owner signs in again from its own address once a second. Figures: records
// missed (goal 0), the owner's sign-ins (goal 100 %, each within 2 s), the p99 of the console's
// GETs during the flood, and what the logins got.
// The same rig at a smaller size runs in `npm test` (test/integration/login-flood.test.ts).
import { percentile, runFlood, startFloodRig } from '../support/login-flood.ts';
import type { Row } from './stats.ts';

const CONCURRENCY = 150;
const FLOOD_MS = 60_000;

export async function measureLoginFlood(rows: Row[]): Promise<void> {
  const rig = await startFloodRig();
  try {
    const r = await runFlood(rig, { concurrency: CONCURRENCY, ms: FLOOD_MS });
    const how = `${CONCURRENCY} concurrent wrong logins for ${FLOOD_MS / 1000} s from new addresses, logger on a 1 s cycle`;
    const ok = r.adminLogins.filter((a) => a.status === 200).length;
    const ms = r.adminLogins.map((a) => a.ms);
    rows.push({
      figure: 'login flood: owner sign-ins that got in (%)',
      ours: r.adminLogins.length ? (100 * ok) / r.adminLogins.length : NaN,
      note: `${ok} of ${r.adminLogins.length} tries from an address that signed in before; goal 100 %`,
    });
    rows.push({
      figure: 'login flood: owner sign-in max (ms)',
      ours: ms.length ? Math.max(...ms) : NaN,
      note: `median ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms; goal ≤ 2000`,
    });
    rows.push({ figure: 'login flood: log records missed', ours: r.missed, note: `${r.records} records in ${r.seconds.toFixed(0)} s; goal 0; ${how}` });
    rows.push({
      figure: 'login flood: console GET p99 (ms)',
      ours: percentile(r.gets, 99),
      note: `${r.gets.length} GETs (section, folder list), max ${Math.max(...r.gets).toFixed(0)} ms, ${r.failedGets} not 200; goal < 1000`,
    });
    rows.push({
      figure: 'login flood: logins checked (401)',
      ours: r.logins[401] ?? 0,
      note: `refused at once (429): ${r.logins[429] ?? 0}; failed connections: ${r.logins[0] ?? 0}; hashes at once: at most ${r.maxHashing}`,
    });
  } finally {
    await rig.stop();
  }
}
