// The unit's health over the last hour (`GET /config/health`, docs/monitor.md "Health"): the daemon
// builds it (device/diag/health.ts), the console checks the answer against this schema.
import * as v from 'valibot';

const num = v.pipe(v.number(), v.minValue(0));

export const healthSampleSchema = v.object({
  t: v.number(),
  links: v.record(v.string(), v.object({ busy: v.pipe(num, v.maxValue(1)), requests: num, errors: num, timeouts: num })),
  volumes: v.record(v.string(), v.object({ free: num, total: num })),
  logRecords: num,
  cpu: num,
  rss: num,
  heap: num,
});
export const healthAnswerSchema = v.object({ intervalMs: num, samples: v.array(healthSampleSchema) });
export type HealthAnswer = v.InferOutput<typeof healthAnswerSchema>;
