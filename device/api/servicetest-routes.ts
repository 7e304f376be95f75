// The connection tests of the MQTT, FTP, HTTP client and e-mail pages (spec §2 service layout, §3,
// §8): `POST /config/servicetest/<section>` runs the section's test on its SAVED settings, whether
// or not the service is enabled (a technician tests before enabling). A peer that fails the test is
// an answer (200, ok false); settings that name no server, or a certificate file that is not on the
// unit, are refused with 409 before anything goes on the wire. Asked for JSON lines, the answer
// gives each step as it begins and ends, then the result (the console shows the steps live).

import { access } from 'node:fs/promises';
import type { Email } from '../model/sections/email.ts';
import type { Ftpc } from '../model/sections/ftpc.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import type { Mqtt } from '../model/sections/mqtt.ts';
import type { ServiceTestResult } from '../model/servicetest.ts';
import { testFtp } from '../services/ftp-test.ts';
import { testHttp } from '../services/http-test.ts';
import { testMail } from '../services/mail-test.ts';
import { testMqtt } from '../services/mqtt-test.ts';
import { watchTestSteps } from '../services/test-run.ts';
import { certPath } from '../system/cert-files.ts';
import { ApiError } from './errors.ts';
import { jsonLinesResponse, wantsJsonLines } from './json-lines.ts';
import { type RouteDef, route } from './route.ts';

interface Tested<T> {
  /** the field that names the peer: empty = nothing to test */
  peerField: keyof T & string;
  /** the certificate fields the test reads */
  certFields: (keyof T & string)[];
  run: (value: T, dataDir: string) => Promise<ServiceTestResult>;
}

const tested = <T>(t: Tested<T>) => t as unknown as Tested<Record<string, unknown>>;

export const SERVICE_TESTS: Record<string, Tested<Record<string, unknown>>> = {
  pew_mqtt: tested<Mqtt>({ peerField: 'broker_addr', certFields: ['ca', 'client', 'key'], run: testMqtt }),
  pew_ftpc: tested<Ftpc>({ peerField: 'server_ip', certFields: ['ca', 'client', 'key'], run: testFtp }),
  pew_httpc: tested<Httpc>({ peerField: 'server_addr', certFields: ['ca', 'client', 'key'], run: testHttp }),
  pew_email: tested<Email>({ peerField: 'server_smtp', certFields: ['ca', 'client', 'key'], run: testMail }),
};

async function present(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export const serviceTestRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/servicetest/:section',
    key: 'servicetest',
    access: 'admin',
    handler: async (c, ctx) => {
      const section = c.req.param('section') ?? '';
      const test = Object.hasOwn(SERVICE_TESTS, section) ? SERVICE_TESTS[section] : undefined;
      if (!test) throw new ApiError(404, 'not_found', `No connection test for ${section}`);
      const value = ctx.store.get<Record<string, unknown>>(section);
      if (value[test.peerField] === '')
        throw new ApiError(409, 'service_not_configured', 'No server is set in the saved settings', undefined, { field: test.peerField });
      for (const f of test.certFields) {
        const name = value[f];
        if (typeof name === 'string' && name !== '' && !(await present(certPath(ctx.dataDir, section, name))))
          throw new ApiError(409, 'certificate_missing', `The certificate file ${name} is not on the unit`, undefined, { name });
      }
      const run = async () => {
        const result = await test.run(value, ctx.dataDir);
        ctx.log.info('connection test', { section, peer: result.peer, ok: result.ok, ...(result.failure ? { reason: result.failure.reason } : {}) });
        return result;
      };
      if (!wantsJsonLines(c.req.header('Accept'))) return c.json(await run());
      return jsonLinesResponse(async (send) => send({ result: await watchTestSteps(send, run) }));
    },
  }),
];
