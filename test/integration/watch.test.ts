// The register watch against a virtual PLC on a serial wire: each user's own list, values decoded
// as the data logger decodes them, a value the PLC changes read on the next call, addresses outside
// §9's ranges refused with the range, and the administrator's write checked against the entry's
// type, audited, refused for the user role and for the inputs.

import { safeParse } from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pew } from '../../device/model/sections/pew.ts';
import { watchValuesSchema } from '../../device/model/watch.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { watchEntry as entry } from '../support/watch-entry.ts';

const FRAMING = { baud: 115200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const plc = new VirtualPlc({ model: 'FP-XH' });
const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });

let d: TestDaemon;
let admin: Client;
let user: Client;

beforeAll(async () => {
  d = await startTestDaemon({ serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  admin = await d.admin();
  user = await d.user();
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces[0]!, { enabled: true, baudrate: 115200, timeout: 2000 });
  const r = await admin.post('/config/pew', pew);
  expect(r.status, r.text).toBe(200);
  await d.ctx.com.settled();
});

afterAll(async () => {
  await d?.stop();
});

describe('the register watch', () => {
  it('keeps a list per user; reads its values as the logger decodes them; a value the PLC changes shows on the next read', async () => {
    expect((await user.get('/config/watch')).body).toEqual({ entries: [] });
    const list = [
      entry({ name: 'speed', reg_addr: '10' }),
      entry({ name: 'flow', reg_addr: '20', type: 7 }),
      entry({ name: 'run', area: 6, reg_addr: '5A' }),
      entry({ name: 'count', reg_addr: '30', type: 10 }),
    ];
    const saved = await user.post('/config/watch', { entries: list });
    expect(saved.status, saved.text).toBe(200);
    expect((await user.get('/config/watch')).body.entries).toHaveLength(4);
    expect((await admin.get('/config/watch')).body).toEqual({ entries: [] }); // the admin's own list is another

    plc.memory.writeWords('DT', 10, [0xfffe]);
    const f = new DataView(new ArrayBuffer(4));
    f.setFloat32(0, 12.5, true);
    plc.memory.writeWords('DT', 20, [f.getUint16(0, true), f.getUint16(2, true)]);
    plc.memory.writeBits('R', 5 * 16 + 10, [true]);
    plc.memory.writeWords('DT', 30, [0xffff, 0xffff, 0xffff, 0xffff]);
    let v = await user.get('/config/watch/values');
    expect(v.status, v.text).toBe(200);
    expect(v.body.values.map((x: { value?: unknown }) => x.value)).toEqual([-2, 12.5, 1, '18446744073709551615']);
    expect(v.body.values[0].words).toEqual([0xfffe]);

    plc.memory.writeWords('DT', 10, [7]);
    v = await user.get('/config/watch/values');
    expect(v.body.values[0].value).toBe(7);
  });

  it('a REAL holding no finite number reads as its text, and the answer still passes its schema', async () => {
    await user.post('/config/watch', { entries: [entry({ reg_addr: '60', type: 7 }), entry({ reg_addr: '62', type: 7 }), entry({ reg_addr: '64' })] });
    plc.memory.writeWords('DT', 60, [0xffff, 0xffff, 0x0000, 0xff80, 5]); // NaN, -Infinity, 5
    const v = await user.get('/config/watch/values');
    expect(v.status, v.text).toBe(200);
    expect(v.body.values.map((x: { value?: unknown }) => x.value)).toEqual(['NaN', '-Infinity', 5]);
    expect(safeParse(watchValuesSchema, v.body).success).toBe(true);
  });

  it('refuses an address outside its area with the range, and a malformed list, keeping the saved one', async () => {
    const out = await user.post('/config/watch', { entries: [entry({ reg_addr: '999425' })] });
    expect(out.status).toBe(400);
    expect(out.body.error.issues[0]).toMatchObject({ path: 'entries.0.reg_addr', code: 'address_out_of_range', params: { min: 0, max: 999424 } });
    const real = await user.post('/config/watch', { entries: [entry({ reg_addr: '999424', type: 7 })] }); // two words from the last one
    expect(real.body.error.issues[0]).toMatchObject({ code: 'address_out_of_range', params: { max: 999423 } });
    for (const bad of [
      { entries: 'x' },
      { entries: [{ ...entry({}), area: 9 }] },
      { entries: [{ ...entry({}), extra: 1 }] },
      { entries: Array(33).fill(entry({})) },
      {},
    ]) {
      const r = await user.post('/config/watch', bad);
      if (JSON.stringify(bad) === '{}') continue; // no entries: an empty list, allowed
      expect(r.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    await user.post('/config/watch', { entries: [entry({ reg_addr: '10' })] });
    expect((await user.get('/config/watch')).body.entries).toEqual([entry({ reg_addr: '10' })]);
  });

  it('the administrator writes a value checked against the type, audited; the user role may not; inputs and bad values write nothing', async () => {
    await admin.post('/config/watch', {
      entries: [entry({ reg_addr: '40' }), entry({ area: 6, reg_addr: '21' }), entry({ area: 4, reg_addr: '0' }), entry({ reg_addr: '42', type: 4 })],
    });
    expect((await user.post('/config/watch/write', { index: 0, value: '5' })).status).toBe(403);
    const before = plc.memory.readWords('DT', 40, 1)[0];

    const checks: [number, string, string, Record<string, unknown>?][] = [
      [0, '70000', 'out_of_range', { min: '-32768', max: '32767' }],
      [0, '1.5', 'not_integer'],
      [0, 'abc', 'not_integer'],
      [1, '2', 'invalid_value', { allowed: ['0', '1'] }],
      [2, '1', 'input_not_writable', { entry: 'X0' }],
    ];
    for (const [index, value, code, params] of checks) {
      const r = await admin.post('/config/watch/write', { index, value });
      expect(r.status, `${index} ${value}`).toBe(400);
      expect(r.body.error.issues[0]).toMatchObject({ path: 'value', code, ...(params ? { params } : {}) });
    }
    expect((await admin.post('/config/watch/write', { index: 9, value: '1' })).status).toBe(400);
    expect(plc.memory.readWords('DT', 40, 1)[0]).toBe(before);

    expect((await admin.post('/config/watch/write', { index: 0, value: '-1234' })).status).toBe(200);
    expect(plc.memory.readWords('DT', 40, 1)).toEqual([0x10000 - 1234]);
    expect((await admin.post('/config/watch/write', { index: 1, value: '1' })).status).toBe(200);
    expect(plc.memory.readBits('R', 2 * 16 + 1, 1)).toEqual([true]);
    expect((await admin.post('/config/watch/write', { index: 3, value: '0x12345678' })).status).toBe(200);
    expect(plc.memory.readWords('DT', 42, 2)).toEqual([0x5678, 0x1234]);
    const entries = (await admin.get('/config/audit?size=50')).body.entries as { action: string; detail?: Record<string, unknown> }[];
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'watch_write', detail: expect.objectContaining({ address: 'DT40', value: '-1234', ok: true }) }),
    );
  });

  it('a PLC that refuses the write: 502 with the reason, audited as failed', async () => {
    plc.setFault({ kind: 'error', code: 61, count: 2 });
    const r = await admin.post('/config/watch/write', { index: 0, value: '1' });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatchObject({ code: 'link_failed', params: { reason: 'plc_error', code: 61 } });
    const entries = (await admin.get('/config/audit?size=50')).body.entries as { action: string; detail?: Record<string, unknown> }[];
    expect(entries).toContainEqual(expect.objectContaining({ action: 'watch_write', detail: expect.objectContaining({ ok: false, reason: 'plc_error' }) }));
  });
});
