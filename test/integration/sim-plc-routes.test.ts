// The simulator's own PLC routes (sim/plc-routes.ts) on a real daemon, as `npm start` mounts them
// through startDaemon({ extraRoutes }): the list of virtual PLCs, reading and writing their memory
// by address text, the refusals (bad address, outside the memory, unknown connector, not JSON), and
// the fault, RUN/PROG and cable controls seen from the daemon's side of the wire (PLC test, reads).
// Plain fetch without a session: the routes are public but loopback-only.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlcError } from '../../device/com/dialog.ts';
import { type Daemon, startDaemon } from '../../device/main.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { createLogger } from '../../device/system/log.ts';
import { systemClock } from '../../hw/types.ts';
import { createSimHw } from '../../sim/hw.ts';
import { parsePlcConfig } from '../../sim/plc/config.ts';
import { createPlcRig, type PlcRig } from '../../sim/plc/rig.ts';
import { SIM_PLC_PATH, simPlcRoutes } from '../../sim/plc-routes.ts';
import { ADMIN, Client } from '../support/daemon.ts';

const TIMEOUT_MS = 300;

let dataDir: string;
let rig: PlcRig;
let d: Daemon;
let admin: Client;

/** A call without a session; JSON bodies sent as application/json. */
async function call(method: 'GET' | 'POST', path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(d.url + path, {
    method,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType } } : {}),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

const plc = (c: 'COM1' | 'COM2' | 'COM3' | 'COM4') => rig.plcs.get(c)!;
const link = (id: number) => d.ctx.com.links.get(id)!;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sim-plc-routes-'));
  // the serial PLCs keep their defaults (in-process wires, 9600 8O1 like the unit's COM defaults);
  // COM4 on loopback with any free ports, so nothing collides with another run
  rig = createPlcRig(parsePlcConfig({ COM4: { host: '127.0.0.1', mewtocolPort: 0, modbusPort: 0 } }), { dir: join(dataDir, 'pty') });
  await rig.start();
  d = await startDaemon({
    hw: createSimHw({ dataDir, versions: { app: '0', bsp: '1.3.2', hmi: '4.5.2' }, virtualPorts: rig.virtualPorts, serialMap: rig.serialMap }),
    dataDir,
    port: 0,
    log: createLogger({ clock: systemClock, sink: null }),
    extraRoutes: simPlcRoutes(rig),
  });
  const setup = await new Client(d.url).post('/rest/api/v1/authentication/setup', ADMIN);
  expect(setup.status, setup.text).toBe(201);
  admin = await new Client(d.url).login(ADMIN);
  // COM1 (id 0) MEWTOCOL to the FP-XH, COM3 (id 1) MEWTOCOL7 to the FP7, both at the defaults 9600 8O1
  const p = (await admin.get('/config/pew')).body as Pew;
  Object.assign(p.interfaces.find((i) => i.name === 'COM1')!, { enabled: true, protocol: 'MEWTOCOL', timeout: TIMEOUT_MS });
  Object.assign(p.interfaces.find((i) => i.name === 'COM3')!, { enabled: true, protocol: 'MEWTOCOL7', timeout: TIMEOUT_MS });
  const r = await admin.post('/config/pew', p);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
});

afterAll(async () => {
  await d?.close();
  await rig?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the simulator's PLC routes", () => {
  it('GET /sim/plcs lists every virtual PLC with its model, station, mode and counters, and the banner lines', async () => {
    const r = await call('GET', SIM_PLC_PATH);
    expect(r.status).toBe(200);
    expect(r.body.plcs.map((p: { connector: string; model: string }) => [p.connector, p.model])).toEqual([
      ['COM1', 'FP-XH'],
      ['COM2', 'FP0R'],
      ['COM3', 'FP7'],
      ['COM4', 'FP-X'],
    ]);
    expect(r.body.plcs[0]).toMatchObject({ connector: 'COM1', station: 1, mode: 'RUN', fault: { kind: 'none' } });
    expect(typeof r.body.plcs[0].requests).toBe('number');
    expect(r.body.lines).toEqual(rig.describe());
    expect(r.body.lines).toHaveLength(4);
    expect(r.body.lines[0]).toMatch(/^COM1 {2}FP-XH station 1 {2}MEWTOCOL 9600 8O1 {2}in-process$/);
    expect(r.body.lines[3]).toMatch(/^COM4 {2}FP-X station 1 {2}127\.0\.0\.1:\d+ MEWTOCOL, :\d+ Modbus$/);
  });

  it("GET …/memory reads words written straight into the PLC's memory", async () => {
    plc('COM1').memory.writeWords('DT', 100, [11, 0xffff, 300]);
    const r = await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=DT100&count=3`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ address: 'DT100', values: [11, 65535, 300] });
    // no count: one value; the connector in any case
    expect((await call('GET', `${SIM_PLC_PATH}/com1/memory?address=DT101`)).body).toEqual({ address: 'DT101', values: [65535] });
  });

  it("POST …/memory writes words into the PLC's memory", async () => {
    const r = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT5', values: [1, 2] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ok: true });
    expect(plc('COM1').memory.readWords('DT', 5, 2)).toEqual([1, 2]);
    // -1 is stored as 16 bits
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT7', values: [-1] })).status).toBe(200);
    expect(plc('COM1').memory.readWords('DT', 7, 1)).toEqual([0xffff]);
  });

  it('bit addresses take and give booleans, seen in the word view', async () => {
    const w = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'Y1F', values: [true, true, false] });
    expect(w.status, w.text).toBe(200);
    expect(plc('COM1').memory.readBits('Y', 1 * 16 + 0xf, 3)).toEqual([true, true, false]);
    expect(plc('COM1').memory.readWords('WY', 1, 2)).toEqual([0x8000, 0x0001]);
    const r = await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=Y1E&count=4`);
    expect(r.body).toEqual({ address: 'Y1E', values: [false, true, true, false] });
    plc('COM1').memory.writeBits('R', 10 * 16 + 0xa, [true]); // R10A: word 10 (decimal), bit A
    expect((await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=R10A`)).body.values).toEqual([true]);
  });

  it('a bad address is a 400 that says what is wrong, and changes nothing', async () => {
    const before = plc('COM1').memory.writes;
    const r = await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=QQ1`);
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ code: 'invalid_input', message: 'QQ1: "QQ1" does not start with X, Y, R or L' });
    // no address at all
    const none = await call('GET', `${SIM_PLC_PATH}/COM1/memory?count=2`);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('give the address to read, e.g. ?address=DT100&count=4');
    const w = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT1A', values: [1] });
    expect(w.status).toBe(400);
    expect(w.body.error.message).toMatch(/^DT1A: .*decimal digits/);
    // values of the wrong kind for the address
    const kind = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT0', values: [true] });
    expect(kind.status).toBe(400);
    expect(kind.body.error.message).toBe('DT0 is a word address: write whole numbers from -32768 to 65535');
    const bits = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'R0', values: [1] });
    expect(bits.body.error.message).toBe('R0 is a bit address: write true or false');
    // count out of range, before the address is looked at
    const count = await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=DT0&count=0`);
    expect(count.status).toBe(400);
    expect(count.body.error.message).toBe('count must be a whole number from 1 to 1000');
    expect(plc('COM1').memory.writes).toBe(before);
  });

  it("outside the model's memory is a 400 naming the area, for reads and writes", async () => {
    const size = plc('COM1').memory.size('DT'); // FP-XH: DT0-DT65532
    expect(size).toBe(65533);
    const r = await call('GET', `${SIM_PLC_PATH}/COM1/memory?address=DT${size - 1}&count=2`);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_input');
    expect(r.body.error.message).toMatch(new RegExp(`^DT${size - 1}: .*outside the PLC's memory \\(DT ends before that on this CPU model\\)$`));
    const before = plc('COM1').memory.writes;
    const w = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: `DT${size}`, values: [1] });
    expect(w.status).toBe(400);
    expect(plc('COM1').memory.writes).toBe(before);
  });

  it('a connector without a virtual PLC is a 404 that names the ones there are', async () => {
    for (const [method, path, body] of [
      ['GET', `${SIM_PLC_PATH}/COM9/memory?address=DT0`, undefined],
      ['POST', `${SIM_PLC_PATH}/COM9/memory`, { address: 'DT0', values: [1] }],
      ['POST', `${SIM_PLC_PATH}/COM9/fault`, { kind: 'none' }],
      ['POST', `${SIM_PLC_PATH}/COM9/mode`, { run: true }],
      ['POST', `${SIM_PLC_PATH}/COM9/cable`, { plugged: true }],
    ] as const) {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error).toEqual({ code: 'not_found', message: 'No virtual PLC on COM9 (COM1, COM2, COM3, COM4)' });
    }
  });

  it('a POST that is not application/json is a 415 and changes nothing', async () => {
    const before = plc('COM1').memory.readWords('DT', 50, 1);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const r = await call('POST', `${SIM_PLC_PATH}/COM1/memory`, JSON.stringify({ address: 'DT50', values: [9] }), type);
      expect(r.status, type).toBe(415);
      expect(r.body.error.code).toBe('invalid_json');
    }
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/fault`, '{"kind":"silent"}', 'text/plain')).status).toBe(415);
    expect(plc('COM1').memory.readWords('DT', 50, 1)).toEqual(before);
    expect(plc('COM1').fault).toEqual({ kind: 'none' });
  });

  it('a body that does not fit the route is a 400', async () => {
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT0', values: [] })).status).toBe(400);
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/memory`, { address: 'DT0', values: [1], extra: 1 })).status).toBe(400);
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/fault`, { kind: 'melt' })).status).toBe(400);
    const noCode = await call('POST', `${SIM_PLC_PATH}/COM1/fault`, { kind: 'error' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.message).toMatch(/error code .* not in 1-99/);
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/mode`, { run: 'yes' })).status).toBe(400);
    expect(plc('COM1').fault).toEqual({ kind: 'none' });
  });

  it("POST …/fault error 61 for one request: the daemon's PLC test fails with code 61, the next one passes", async () => {
    const f = await call('POST', `${SIM_PLC_PATH}/COM1/fault`, { kind: 'error', code: 61, count: 1 });
    expect(f.status, f.text).toBe(200);
    expect(f.body).toMatchObject({ model: 'FP-XH', fault: { kind: 'error', code: 61, count: 1 } });
    expect(plc('COM1').fault).toEqual({ kind: 'error', code: 61, count: 1 });

    const failed = await admin.post('/config/plctest', { id: 0 });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, id: 0, reason: 'plc_error', code: 61 });
    expect(failed.body.raw).toMatch(/^%EE!61[0-9A-F]{2}⏎$/); // the PLC's error answer, its CR shown as ⏎
    expect(plc('COM1').fault).toEqual({ kind: 'none' }); // used up

    const ok = await admin.post('/config/plctest', { id: 0 });
    expect(ok.body).toMatchObject({ ok: true, cpu: { name: 'FP-XH' }, mode: 'RUN' });
  });

  it("POST …/fault error also reaches the link's own identify", async () => {
    expect((await call('POST', `${SIM_PLC_PATH}/COM1/fault`, { kind: 'error', code: 41, count: 1 })).status).toBe(200);
    const err = await link(0)
      .identify()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlcError);
    expect(err).toMatchObject({ reason: 'plc_error', code: 41 });
  });

  it('POST …/mode {run:false}: RT (COM1) and STRD (COM3, FP7 over MEWTOCOL7) report PROG; {run:true} RUN again', async () => {
    try {
      for (const c of ['COM1', 'COM3'] as const) {
        const r = await call('POST', `${SIM_PLC_PATH}/${c}/mode`, { run: false });
        expect(r.status, r.text).toBe(200);
        expect(r.body.mode).toBe('PROG');
        expect(plc(c).memory.running).toBe(false);
      }
      const rt = await admin.post('/config/plctest', { id: 0 });
      expect(rt.body).toMatchObject({ ok: true, protocol: 'MEWTOCOL', cpu: { name: 'FP-XH' }, mode: 'PROG' });
      const strd = await admin.post('/config/plctest', { id: 1 });
      expect(strd.body).toMatchObject({ ok: true, protocol: 'MEWTOCOL7', cpu: { name: 'FP7' }, model: 'CPS41E', mode: 'PROG' });
      expect(strd.body.raw).toMatch(/^>@EEE[0-9A-F]{2}\$30STRD/);
      expect((await link(1).identify()).mode).toBe('PROG');
    } finally {
      for (const c of ['COM1', 'COM3'] as const) await call('POST', `${SIM_PLC_PATH}/${c}/mode`, { run: true });
    }
    expect(plc('COM1').memory.running).toBe(true);
    expect((await link(0).identify()).mode).toBe('RUN');
    expect((await link(1).identify()).mode).toBe('RUN');
  });

  it('POST …/cable {plugged:false}: a read of the link times out; {plugged:true}: it reads again', async () => {
    plc('COM1').memory.writeWords('DT', 300, [4242]);
    expect(await link(0).readWords('DT', 300, 1)).toEqual([4242]);
    const off = await call('POST', `${SIM_PLC_PATH}/COM1/cable`, { plugged: false });
    try {
      expect(off.status, off.text).toBe(200);
      expect(off.body.ok).toBe(true);
      expect(off.body.lines[0]).toMatch(/^COM1 .* {2}UNPLUGGED$/);
      expect(rig.attachments.get('COM1')!.plugged).toBe(false);
      const timeouts = link(0).status().stats.timeouts;
      const t0 = Date.now();
      const err = await link(0)
        .readWords('DT', 300, 1)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PlcError);
      expect((err as PlcError).reason).toBe('no_answer');
      // one attempt and its retry, each given up after the interface timeout
      expect(Date.now() - t0).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(link(0).status().stats.timeouts - timeouts).toBe(2);
    } finally {
      const on = await call('POST', `${SIM_PLC_PATH}/COM1/cable`, { plugged: true });
      expect(on.status, on.text).toBe(200);
      expect(on.body.lines[0]).not.toMatch(/UNPLUGGED/);
    }
    expect(await link(0).readWords('DT', 300, 1)).toEqual([4242]);
    await expect.poll(() => link(0).status().state, { timeout: 15_000 }).toBe('up');
  });

  it('COM4 (TCP) can be unplugged and plugged through the same route', async () => {
    const off = await call('POST', `${SIM_PLC_PATH}/COM4/cable`, { plugged: false });
    expect(off.body.lines[3]).toMatch(/ {2}UNPLUGGED$/);
    const on = await call('POST', `${SIM_PLC_PATH}/COM4/cable`, { plugged: true });
    expect(on.body.lines[3]).not.toMatch(/UNPLUGGED/);
  });

  it("the counters of the list follow the daemon's requests", async () => {
    // each of ten reads is counted; the daemon's own requests on that line (a late retry of the
    // unplugged cable's reads above, on a busy machine) may fall between the two readings as well
    const before = (await call('GET', SIM_PLC_PATH)).body.plcs[0].requests as number;
    for (let i = 0; i < 10; i++) await link(0).readWords('DT', 0, 1);
    const after = (await call('GET', SIM_PLC_PATH)).body.plcs[0].requests as number;
    expect(after - before).toBeGreaterThanOrEqual(10);
    expect(after - before).toBeLessThan(20);
  });

  it('answers loopback addresses only (checked in the code: this test cannot send from another address)', async () => {
    // Every request of this test comes from 127.0.0.1, so a refused non-loopback request cannot be
    // made here without faking the connection; the rule is checked in the source instead: the
    // loopback pattern, and that the list and every per-connector route (through plcAt) apply it.
    const source = await readFile(new URL('../../sim/plc-routes.ts', import.meta.url), 'utf8');
    expect(source).toContain('const LOOPBACK = /^(127\\.|::1$|::ffff:127\\.)/;');
    const check = "if (!LOOPBACK.test(sourceOf(c))) throw new ApiError(403, 'forbidden'";
    expect(source.split(check).length - 1).toBe(2); // the list route and plcAt
    expect(source.match(/const \{ (plc|connector) \} = plcAt\(c\);/g)).toHaveLength(5);
    // and what the pattern lets through
    const pattern = /^(127\.|::1$|::ffff:127\.)/;
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every((a) => pattern.test(a))).toBe(true);
    expect(['10.0.0.7', '192.168.1.5', '::ffff:10.0.0.7', '::10', 'unknown'].some((a) => pattern.test(a))).toBe(false);
  });
});
