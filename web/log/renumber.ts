// spec §4: "Deleting log files or data points renumbers the remaining ids starting from 1." Log
// files (pew_log.log_def) and data points (a log file's records) carry an `id`; after any removal
// the remaining entries keep their order and get the ids 1, 2, 3 … again.

/** The entries with ids 1…n in their order; entries whose id is already right are kept as they are. */
export function renumber<T extends { id: number }>(items: readonly T[]): T[] {
  return items.map((item, i) => (item.id === i + 1 ? item : { ...item, id: i + 1 }));
}

/** The entries without those at `indexes` (positions, not ids), renumbered from 1. */
export function removeAt<T extends { id: number }>(items: readonly T[], indexes: Iterable<number>): T[] {
  const drop = new Set(indexes);
  return renumber(items.filter((_, i) => !drop.has(i)));
}
