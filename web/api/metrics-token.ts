// The scrape token of GET /metrics (docs/api.md rows metrics_token…): the calls of the card on
// /users. The daemon checks the body with the same schema; its answers are checked before shown.
import { metricsTokenStatusSchema } from '../../device/model/metrics-token.ts';
import { checked } from './checked.ts';
import { get, post } from './client.ts';

const PATH = '/config/metrics_token';

export const metricsTokenStatus = async () => checked(metricsTokenStatusSchema, await get<unknown>(PATH));
/** Without `token` the unit generates one and answers it, this once. */
export const setMetricsToken = async (token?: string) => checked(metricsTokenStatusSchema, await post<unknown>(PATH, token === undefined ? {} : { token }));
export const clearMetricsToken = async () => checked(metricsTokenStatusSchema, await post<unknown>(`${PATH}/clear`, {}));
