// The route table answers every request key of spec §7 for real: no handler is a placeholder that
// answers 501, and every key the spec lists is routed. The request sweep (every route as the
// admin, nothing 5xx) is in test/integration/api-doc.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './app.ts';

const DEVICE = new URL('..', import.meta.url).pathname;

describe('route table', () => {
  it('no daemon source answers 501 or not_implemented', () => {
    const sources = readdirSync(DEVICE, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(50);
    const found = sources.filter((f) => /\b501\b|not_implemented/.test(readFileSync(join(DEVICE, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('routes every request key of spec §7', () => {
    const keys = new Set(ROUTES.map((r) => r.key));
    const spec = [
      'pew_mqtt',
      'pew',
      'pew_redirect',
      'pew_log',
      'pew_rtc',
      'pew_ftpc',
      'pew_script',
      'pew_sql',
      'pew_nosql',
      'pew_getinflux',
      'pew_60870',
      'pew_httpc',
      'pew_email',
      'pew_api',
      'pew_tls',
      'get_backup',
      'restore',
      'delete_cert',
      'get_cfg',
      'upload',
      'plctest',
      'get_sqltest',
      'get_nosqltest',
      'get_syslogs',
      'get_update_status',
      'pew_system',
      'get_reset',
      'get_http_content',
      'get_defscript',
      'get_files_intern',
      'get_files_usb',
      'get_files_temp',
      'all_logfiles',
      'delete_logfile',
      'delete_user_webfiles',
      'writefile',
      'get_ver',
      'apitest',
      'download/',
      'download/pew_script.cfg',
    ];
    expect(spec.filter((k) => !keys.has(k))).toEqual([]);
  });

  it('the catch-all of unknown downloads comes after every download route', () => {
    const at = ROUTES.findIndex((r) => r.path === '/download/*');
    expect(at).toBe(ROUTES.length - 1);
  });
});
