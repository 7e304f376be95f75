// `npm run plc`: each command line of the usage becomes one request to the simulator's PLC routes
// (method, path under SIM_PLC_PATH, JSON body), and a line that cannot be one is refused with a
// message that says what is missing.

import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLC_CLI_USAGE, plcCommand, simulatorUrl } from './plc-cli.ts';
import { SIM_PLC_PATH } from './plc-routes.ts';
import { readSimUrl, removeSimUrl, SIM_URL_FILE, writeSimUrl } from './sim-url.ts';

const line = (text: string) => text.split(' ');

describe('plcCommand: command line → request', () => {
  it('the routes live under /sim/plcs', () => {
    expect(SIM_PLC_PATH).toBe('/sim/plcs');
  });

  it('list is a GET of every PLC, without a body', () => {
    expect(plcCommand(['list'])).toStrictEqual({ method: 'GET', path: '/sim/plcs' });
    // a --count has nothing to limit here
    expect(plcCommand(['list'], 3)).toStrictEqual({ method: 'GET', path: '/sim/plcs' });
  });

  it('read without a count reads one value', () => {
    expect(plcCommand(line('read COM1 DT100'))).toStrictEqual({ method: 'GET', path: '/sim/plcs/COM1/memory?address=DT100&count=1' });
  });

  it('read with a count passes it on; bit addresses the same way', () => {
    expect(plcCommand(line('read COM1 DT100 4'))).toStrictEqual({ method: 'GET', path: '/sim/plcs/COM1/memory?address=DT100&count=4' });
    expect(plcCommand(line('read COM3 R10 16'))).toStrictEqual({ method: 'GET', path: '/sim/plcs/COM3/memory?address=R10&count=16' });
  });

  it('read encodes the connector and the address for the URL', () => {
    expect(plcCommand(['read', 'COM/1', 'DT1&x=2', '2']).path).toBe('/sim/plcs/COM%2F1/memory?address=DT1%26x%3D2&count=2');
  });

  it('write of a word address sends numbers: decimal, negative and hex', () => {
    expect(plcCommand(line('write COM1 DT100 1 2 3'))).toStrictEqual({
      method: 'POST',
      path: '/sim/plcs/COM1/memory',
      body: { address: 'DT100', values: [1, 2, 3] },
    });
    expect(plcCommand(line('write COM1 dt7 -1 0x10 0XFF 65535')).body).toStrictEqual({ address: 'dt7', values: [-1, 16, 255, 65535] });
    for (const area of ['FL', 'LD', 'WR', 'WL', 'WY', 'WX']) {
      expect(plcCommand(['write', 'COM2', `${area}3`, '42']).body).toStrictEqual({ address: `${area}3`, values: [42] });
    }
  });

  it('write of a bit address sends booleans for 0, 1, true and false', () => {
    expect(plcCommand(line('write COM1 Y0 1 0 true false'))).toStrictEqual({
      method: 'POST',
      path: '/sim/plcs/COM1/memory',
      body: { address: 'Y0', values: [true, false, true, false] },
    });
    expect(plcCommand(line('write COM3 R10F 1')).body).toStrictEqual({ address: 'R10F', values: [true] });
    expect(plcCommand(line('write COM1 L5 false')).body).toStrictEqual({ address: 'L5', values: [false] });
  });

  it('fault none clears, without a count even when one is given', () => {
    expect(plcCommand(line('fault COM1 none'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM1/fault', body: { kind: 'none' } });
    expect(plcCommand(line('fault COM1 none'), 3).body).toStrictEqual({ kind: 'none' });
  });

  it('fault silent (and the other plain kinds), with --count when given', () => {
    expect(plcCommand(line('fault COM2 silent'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM2/fault', body: { kind: 'silent' } });
    expect(plcCommand(line('fault COM2 silent'), 2).body).toStrictEqual({ kind: 'silent', count: 2 });
    expect(plcCommand(line('fault COM2 bad_check'), 1).body).toStrictEqual({ kind: 'bad_check', count: 1 });
    expect(plcCommand(line('fault COM2 garble')).body).toStrictEqual({ kind: 'garble' });
  });

  it('fault error N sends the code as a number, with --count when given', () => {
    expect(plcCommand(line('fault COM1 error 61'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM1/fault', body: { kind: 'error', code: 61 } });
    expect(plcCommand(line('fault COM1 error 61'), 1).body).toStrictEqual({ kind: 'error', code: 61, count: 1 });
  });

  it('fault slow MS sends the delay, with --count when given', () => {
    expect(plcCommand(line('fault COM4 slow 2000'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM4/fault', body: { kind: 'slow', delayMs: 2000 } });
    expect(plcCommand(line('fault COM4 slow 250'), 5).body).toStrictEqual({ kind: 'slow', delayMs: 250, count: 5 });
    // a second number: each answer a random delay between the two
    expect(plcCommand(line('fault COM1 slow 50 200')).body).toStrictEqual({ kind: 'slow', delayMs: 50, maxDelayMs: 200 });
  });

  it('mode run and mode prog', () => {
    expect(plcCommand(line('mode COM1 run'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM1/mode', body: { run: true } });
    expect(plcCommand(line('mode COM3 prog'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM3/mode', body: { run: false } });
  });

  it('unplug and plug set the cable', () => {
    expect(plcCommand(line('unplug COM1'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM1/cable', body: { plugged: false } });
    expect(plcCommand(line('plug COM4'))).toStrictEqual({ method: 'POST', path: '/sim/plcs/COM4/cable', body: { plugged: true } });
  });
});

describe('plcCommand: bad command lines', () => {
  it.each([
    ['read COM1', 'read: give a connector and an address, e.g. read COM1 DT100 4'],
    ['read', 'read: give a connector and an address, e.g. read COM1 DT100 4'],
    ['write COM1', 'write: give a connector, an address and values, e.g. write COM1 DT100 1 2 3'],
    ['write COM1 DT100', 'write: give a connector, an address and values, e.g. write COM1 DT100 1 2 3'],
    ['write COM1 DT100 1 x', 'write: "x" is not a whole number'],
    ['write COM1 DT100 1.5', 'write: "1.5" is not a whole number'],
    ['write COM1 DT100 true', 'write: "true" is not a whole number'],
    ['write COM1 Y0 2', 'write: "2" is not a bit value (0, 1, true, false)'],
    ['write COM1 R10 1 yes', 'write: "yes" is not a bit value (0, 1, true, false)'],
    ['fault COM1 error', 'fault: give the error code, e.g. fault COM1 error 61'],
    ['fault COM1 error x', 'fault: give the error code, e.g. fault COM1 error 61'],
    ['fault COM1 error -1', 'fault: give the error code, e.g. fault COM1 error 61'],
    ['fault COM1 slow', 'fault: give the extra delay in ms, e.g. fault COM1 slow 2000'],
    ['fault COM1 slow 1s', 'fault: give the extra delay in ms, e.g. fault COM1 slow 2000'],
    ['fault COM1 slow 50 2s', 'fault: give the longest delay in ms after the shortest, e.g. fault COM1 slow 50 200'],
    ['mode COM1', 'mode: run or prog'],
    ['mode COM1 stop', 'mode: run or prog'],
    ['frobnicate COM1', 'unknown command "frobnicate"'],
    ['help', 'no command'],
  ])('%s → %s', (text, message) => {
    expect(() => plcCommand(line(text))).toThrow(new Error(message));
  });

  it('an empty line is no command', () => {
    expect(() => plcCommand([])).toThrow(new Error('no command'));
  });

  it('the usage names every command the function knows', () => {
    for (const shown of [
      '\n  list ',
      '\n  read  <COMn>',
      '\n  write <COMn>',
      '\n  fault <COMn> none',
      '\n  fault <COMn> error <code>',
      '\n  fault <COMn> slow <ms>',
      '\n  mode  <COMn> run|prog',
      '\n  unplug <COMn> | plug <COMn>',
    ]) {
      expect(PLC_CLI_USAGE).toContain(shown);
    }
  });
});

describe('which simulator npm run plc calls', () => {
  it('--url, then SIM_URL, then the URL the simulator wrote into the data folder, else port 8080 unless a folder was named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plc-url-'));
    try {
      const data = join(dir, 'data');
      expect(await simulatorUrl({}, {}, dir)).toMatchObject({ url: 'http://127.0.0.1:8080' });
      await mkdir(data);
      await writeSimUrl(data, 'http://127.0.0.1:41234');
      // ./data of the working folder, --data, DATA_DIR
      expect(await simulatorUrl({}, {}, dir)).toEqual({ url: 'http://127.0.0.1:41234', from: `the simulator of ${data}` });
      expect((await simulatorUrl({ data: 'data' }, {}, dir)).url).toBe('http://127.0.0.1:41234');
      expect((await simulatorUrl({}, { DATA_DIR: data }, '/')).url).toBe('http://127.0.0.1:41234');
      // a folder named by --data or DATA_DIR without a URL: none, not the default port's simulator of another folder
      expect(await simulatorUrl({ data: 'elsewhere' }, {}, dir)).toEqual({ from: `no simulator has written its URL into ${join(dir, 'elsewhere')}` });
      expect((await simulatorUrl({}, { DATA_DIR: join(dir, 'elsewhere') }, '/')).url).toBeUndefined();
      expect((await simulatorUrl({}, { SIM_URL: 'http://127.0.0.1:9' }, dir)).url).toBe('http://127.0.0.1:9');
      expect((await simulatorUrl({ url: 'http://127.0.0.1:7' }, { SIM_URL: 'http://127.0.0.1:9' }, dir)).url).toBe('http://127.0.0.1:7');
      // the file is removed by the process that wrote it only
      expect(JSON.parse(await readFile(join(data, SIM_URL_FILE), 'utf8'))).toEqual({ url: 'http://127.0.0.1:41234', pid: process.pid });
      await removeSimUrl(data);
      expect(await readSimUrl(data)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the usage says that read and write bypass the unit', () => {
    expect(PLC_CLI_USAGE).toContain('not through the unit');
    for (const flag of ['--data DIR', '--url URL', '--count N', '--help']) expect(PLC_CLI_USAGE).toContain(flag);
  });
});
