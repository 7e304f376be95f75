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
  planned('POST', '/config/get_sqltest', 'get_sqltest', 'The SQL test'),
  planned('POST', '/config/get_nosqltest', 'get_nosqltest', 'The NoSQL test'),
  planned('POST', '/config/pew_getinflux', 'pew_getinflux', 'Reading InfluxDB databases'),
  planned('POST', '/config/delete_cert', 'delete_cert', 'Removing certificates'),
  planned('POST', '/config/upload', 'upload', 'Uploading files'),
  planned('POST', '/config/delete_user_webfiles', 'delete_user_webfiles', 'Removing HTTP files'),
  planned('GET', '/config/get_defscript', 'get_defscript', 'The default script'),
  planned('POST', '/config/writefile', 'writefile', 'Writing the script file'),
  planned('POST', '/apitest', 'apitest', 'The REST test'),
  planned('POST', '/config/get_backup', 'get_backup', 'Backup'),
  planned('POST', '/config/restore', 'restore', 'Restore'),
  planned('GET', '/config/get_update_status', 'get_update_status', 'Firmware update status'),
  planned('GET', '/config/pew_system', 'pew_system', 'Service settings'),
  planned('POST', '/config/pew_system', 'pew_system', 'Service settings'),
];
