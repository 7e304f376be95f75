// Request keys of spec §7 whose behaviour later work delivers. They are routed, guarded and
// documented already, and answer 501 until their engine exists.
import { ApiError } from './errors.ts';
import { route, type RouteDef } from './route.ts';

const planned = (method: 'GET' | 'POST', path: string, key: string, what: string): RouteDef =>
  route({
    method, path, key, access: method === 'GET' ? 'user' : 'admin',
    handler: () => {
      throw new ApiError(501, 'not_implemented', `${what} is not available in this version`);
    },
  });

export const plannedRoutes: RouteDef[] = [
  planned('GET', '/download/*', 'download/', 'Downloading files'),
  planned('GET', '/config/pew_system', 'pew_system', 'Service settings'),
  planned('POST', '/config/pew_system', 'pew_system', 'Service settings'),
];
