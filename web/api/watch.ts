// The calls of the register watch (docs/api.md rows watch…): the signed-in user's own list, its
// values read now, and the administrator's write of one entry. Every answer is checked against the
// schemas of device/model/watch.ts before the page shows it.
import { type WatchEntry, type WatchValues, watchListSchema, watchValuesSchema } from '../../device/model/watch.ts';
import { checked } from './checked.ts';
import { get, post } from './client.ts';

export const WATCH_PATH = '/config/watch';

export const fetchWatchList = async (): Promise<WatchEntry[]> => checked(watchListSchema, await get<unknown>(WATCH_PATH)).entries;

/** Replaces the own list; the list as saved. Throws ApiFailure with the issues of a refused one. */
export const saveWatchList = async (entries: unknown[]): Promise<WatchEntry[]> =>
  checked(watchListSchema, await post<unknown>(WATCH_PATH, { entries })).entries;

export const fetchWatchValues = async (): Promise<WatchValues> => checked(watchValuesSchema, await get<unknown>(`${WATCH_PATH}/values`));

/** Writes `value` (as typed) to the entry `index` of the own saved list; throws ApiFailure when refused or not written. */
export const writeWatchValue = async (index: number, value: string): Promise<void> => void (await post<unknown>(`${WATCH_PATH}/write`, { index, value }));
