import { describe, expect, it } from 'vitest';
import { daemonHelp, parseDaemonOptions, wantsHelp } from './options.ts';

describe('daemon options', () => {
  it('defaults: port 8080 and ./data', () => {
    expect(parseDaemonOptions([], {}, '/repo')).toEqual({ port: 8080, dataDir: '/repo/data', host: '127.0.0.1', serialMap: {} });
  });
  it('flags win over the environment, which wins over the defaults', () => {
    expect(parseDaemonOptions([], { PORT: '9000', DATA_DIR: '/d' }, '/repo')).toMatchObject({ port: 9000, dataDir: '/d' });
    expect(parseDaemonOptions(['--port', '9100', '--data', 'x'], { PORT: '9000' }, '/repo')).toMatchObject({ port: 9100, dataDir: '/repo/x' });
  });
  it('maps serial connectors to device paths', () => {
    expect(parseDaemonOptions(['--com1', '/dev/ttyUSB0', '--com3', 'pty/a'], {}, '/repo').serialMap).toEqual({ COM1: '/dev/ttyUSB0', COM3: '/repo/pty/a' });
  });
  it('refuses a bad port and unknown options with a clear message', () => {
    expect(() => parseDaemonOptions(['--port', '70000'], {}, '/')).toThrow(/TCP port/);
    expect(() => parseDaemonOptions(['--port', '8o8o'], {}, '/')).toThrow(/TCP port/);
    expect(() => parseDaemonOptions(['--bogus'], {}, '/')).toThrow();
  });
  it('--help is asked for with --help or -h, wherever it stands', () => {
    expect(wantsHelp(['--port', '9000', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--port', '9000'])).toBe(false);
    // parseArgs alone would refuse it as an unknown option
    expect(() => parseDaemonOptions(['--help'], {}, '/')).toThrow();
  });
  it('the help names every option the parser takes, --plcs only for the simulator', () => {
    for (const kind of ['simulator', 'daemon'] as const) {
      const text = daemonHelp(kind);
      for (const flag of [
        '--port N',
        '--data DIR',
        '--host ADDR',
        '--com1 PATH',
        '--com2',
        '--com3',
        '--help',
        '--tls-port',
        'TLS_PORT',
        'PORT',
        'DATA_DIR',
        'HOST',
        '8080',
      ])
        expect(text, `${kind} ${flag}`).toContain(flag);
      expect(text.includes('--plcs FILE'), kind).toBe(kind === 'simulator');
      expect(text.includes('--dev-origin ORIGIN'), kind).toBe(kind === 'simulator');
    }
    expect(daemonHelp('simulator')).toMatch(/^usage: npm start -- \[options\]/);
    expect(daemonHelp('daemon')).toMatch(/^usage: npm run daemon -- \[options\]/);
  });
  it("--tls-port: a port, or off; absent leaves the variant's default", () => {
    expect(parseDaemonOptions([], {}, '/').tlsPort).toBeUndefined();
    expect(parseDaemonOptions(['--tls-port', '8443'], {}, '/').tlsPort).toBe(8443);
    expect(parseDaemonOptions(['--tls-port', 'off'], {}, '/').tlsPort).toBe('off');
    expect(parseDaemonOptions([], { TLS_PORT: '9443' }, '/').tlsPort).toBe(9443);
    expect(() => parseDaemonOptions(['--tls-port', '70000'], {}, '/')).toThrow(/--tls-port/);
    expect(() => parseDaemonOptions(['--tls-port', 'on'], {}, '/')).toThrow(/--tls-port/);
    expect(() => parseDaemonOptions(['--port', '9000', '--tls-port', '9000'], {}, '/')).toThrow(/differ/);
  });
});
