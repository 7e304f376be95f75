// The simulator's controls of its virtual PLCs (never on the unit): read and write a PLC's memory,
// set a fault, switch RUN/PROG, unplug and plug the cable. For developers on their own machine:
// no session, but only from a loopback address, and POSTs take JSON only, which a page of another
// origin cannot send without a CORS preflight that only the --dev-origin origin passes (device/api/dev-cors.ts).
// `npm run plc` (sim/plc-cli.ts) calls these; docs/simulator.md documents them.

import type { Context } from 'hono';
import * as v from 'valibot';
import { sourceOf } from '../device/api/auth.ts';
import { readBody } from '../device/api/body.ts';
import type { Env } from '../device/api/context.ts';
import { ApiError } from '../device/api/errors.ts';
import { type RouteDef, route } from '../device/api/route.ts';
import { PLC_CONNECTORS, type PlcConnector } from './plc/config.ts';
import { InspectError, readPlcMemory, writePlcMemory } from './plc/inspect.ts';
import type { PlcRig } from './plc/rig.ts';
import { FAULT_KINDS, type Fault } from './plc/virtual-plc.ts';

export const SIM_PLC_PATH = '/sim/plcs';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

const writeBody = v.strictObject({
  address: v.pipe(v.string(), v.maxLength(16)),
  values: v.union([v.pipe(v.array(v.number()), v.minLength(1), v.maxLength(1000)), v.pipe(v.array(v.boolean()), v.minLength(1), v.maxLength(1000))]),
});
const faultBody = v.strictObject({
  kind: v.picklist(FAULT_KINDS),
  code: v.optional(v.number()),
  delayMs: v.optional(v.number()),
  maxDelayMs: v.optional(v.number()),
  count: v.optional(v.number()),
});
const modeBody = v.strictObject({ run: v.boolean() });
const cableBody = v.strictObject({ plugged: v.boolean() });

function bad(message: string): ApiError {
  return new ApiError(400, 'invalid_input', message);
}

export function simPlcRoutes(rig: PlcRig): RouteDef[] {
  const plcAt = (c: Context<Env>) => {
    if (!LOOPBACK.test(sourceOf(c))) throw new ApiError(403, 'forbidden', "The simulator's PLC controls answer loopback addresses only");
    const connector = (c.req.param('connector') ?? '').toUpperCase() as PlcConnector;
    const plc = rig.plcs.get(connector);
    if (!plc) throw new ApiError(404, 'not_found', `No virtual PLC on ${connector} (${PLC_CONNECTORS.filter((k) => rig.plcs.has(k)).join(', ') || 'none'})`);
    return { connector, plc };
  };
  const inspect = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof InspectError || e instanceof RangeError) throw bad(e.message);
      throw e;
    }
  };
  const pub = (method: 'GET' | 'POST', path: string, handler: RouteDef['handler']) =>
    route({ method, path, key: `sim${path.slice(SIM_PLC_PATH.length)}`, access: 'public', handler });

  return [
    pub('GET', SIM_PLC_PATH, (c) => {
      if (!LOOPBACK.test(sourceOf(c))) throw new ApiError(403, 'forbidden', "The simulator's PLC controls answer loopback addresses only");
      return c.json({
        plcs: [...rig.plcs].map(([connector, plc]) => ({ connector, ...plc.describe(), faults: rig.faults(connector) })),
        lines: rig.describe(),
      });
    }),
    pub('GET', `${SIM_PLC_PATH}/:connector/memory`, (c) => {
      const { plc } = plcAt(c);
      const address = c.req.query('address') ?? '';
      if (!address) throw bad('give the address to read, e.g. ?address=DT100&count=4');
      const count = Number(c.req.query('count') ?? '1');
      if (!Number.isInteger(count) || count < 1 || count > 1000) throw bad('count must be a whole number from 1 to 1000');
      return c.json({ address, values: inspect(() => readPlcMemory(plc.memory, address, count)) });
    }),
    pub('POST', `${SIM_PLC_PATH}/:connector/memory`, async (c) => {
      const { plc } = plcAt(c);
      const body = await readBody(c, writeBody);
      inspect(() => writePlcMemory(plc.memory, body.address, body.values));
      return c.json({ ok: true });
    }),
    pub('POST', `${SIM_PLC_PATH}/:connector/fault`, async (c) => {
      const { plc } = plcAt(c);
      const body = await readBody(c, faultBody);
      inspect(() => plc.setFault(body as Fault));
      return c.json(plc.describe());
    }),
    pub('POST', `${SIM_PLC_PATH}/:connector/mode`, async (c) => {
      const { plc } = plcAt(c);
      plc.memory.running = (await readBody(c, modeBody)).run;
      return c.json(plc.describe());
    }),
    pub('POST', `${SIM_PLC_PATH}/:connector/cable`, async (c) => {
      const { connector } = plcAt(c);
      if ((await readBody(c, cableBody)).plugged) rig.plug(connector);
      else rig.unplug(connector);
      return c.json({ ok: true, lines: rig.describe() });
    }),
  ];
}
