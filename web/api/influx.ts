// The InfluxDB listing of the /db page (spec §7 pew_getinflux; answer device/model/influx-list.ts):
// the databases of the server of the saved pew_nosql settings and the measurements of its database,
// the answer checked against the schema before the page shows it.
import { type InfluxList, influxListSchema } from '../../device/model/influx-list.ts';
import { checked } from './checked.ts';
import { post } from './client.ts';

export const INFLUX_LIST_PATH = '/config/pew_getinflux';

/** The lists, or ApiFailure when the daemon refuses (its code) or answers something else. */
export async function readInfluxList(): Promise<InfluxList> {
  return checked(influxListSchema, await post<unknown>(INFLUX_LIST_PATH));
}
