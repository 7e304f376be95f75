// The answer of `POST /config/pew_getinflux` (spec §7): the databases of the InfluxDB server of the
// saved pew_nosql settings, and the measurements of the configured database.
import * as v from 'valibot';

export const influxListSchema = v.object({
  databases: v.array(v.string()),
  measurements: v.array(v.string()),
});
export type InfluxList = v.InferOutput<typeof influxListSchema>;
