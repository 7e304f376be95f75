// The console's data load: begun once at start when signed in, taken over by the console when it
// mounts (no second round of requests), and begun anew for a console mounted after a login.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { defaultsOf } from '../../device/model/section.ts';

let urls: string[];

beforeEach(() => {
  vi.resetModules();
  urls = [];
  vi.stubGlobal('fetch', async (url: string) => {
    urls.push(url);
    const body =
      url === '/config'
        ? Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, defaultsOf(d)]))
        : url.startsWith('/rest/api/v1?')
          ? { os: { hostname: 'unit' } }
          : { services: [], files: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
// the modules imported under the stubs (client.ts's mode read from the stubbed location) leave the
// registry with them: the files run after this one in the same worker import their own
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('console data', () => {
  it('asks for the system information first and the sections in one request', async () => {
    const { consoleData } = await import('./console-data.ts');
    await consoleData();
    expect(urls[0]).toBe('/rest/api/v1?cache=true&js=true');
    expect(urls.filter((u) => u.startsWith('/config/pew') || u === '/config')).toEqual(['/config']);
    const { systemInfo } = await import('./system.ts');
    expect(systemInfo.value?.os.hostname).toBe('unit');
  });

  it('a load begun at start is the one the mounted console uses; the next mount loads again', async () => {
    const { preloadConsoleData, consoleData } = await import('./console-data.ts');
    preloadConsoleData();
    preloadConsoleData(); // a second call begins nothing
    await consoleData();
    const one = ['/rest/api/v1?cache=true&js=true', '/rest/api/v1/services', '/config/get_cfg', '/config/get_http_content', '/config'];
    expect([...urls].sort()).toEqual([...one].sort()); // the console took the load over: no request of its own
    await consoleData(); // a console mounted again (after a logout and a login)
    expect(urls.length).toBe(2 * one.length);
  });

  it('loads the model once the data is in and the browser is idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const { consoleData } = await import('./console-data.ts');
      const { model } = await import('./model.ts');
      await consoleData();
      expect(model.value).toBeNull();
      await vi.advanceTimersByTimeAsync(250);
      await vi.waitFor(() => expect(model.value).not.toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });
});
