// The calls of the /log page's file list against the routes' contract (device/api/logfile-routes.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from './client.ts';
import {
  ALL_LOGFILES_PATH,
  DELETE_LOGFILE_PATH,
  deleteLogFiles,
  fetchAllLogFiles,
  fetchFormatFiles,
  fetchLogFiles,
  formatFileUrl,
  listPath,
  logFileUrl,
} from './logfiles.ts';

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const calls = (fetch: ReturnType<typeof answer>) => fetch.mock.calls.map((c) => c as unknown as [string, RequestInit]);

afterEach(() => {
  vi.unstubAllGlobals();
});

const intern = { storage: 0, mounted: true, files: [{ name: 'tank_20260314.csv', size: 1234, mtime: 1773480000000 }] };

describe('log file calls', () => {
  it('each storage has its list key', () => {
    expect([0, 1, 2].map((s) => listPath(s as 0))).toEqual(['/config/get_files_intern', '/config/get_files_usb', '/config/get_files_temp']);
  });

  it("fetchLogFiles asks the storage's key and returns the checked answer", async () => {
    const fetch = answer(200, intern);
    await expect(fetchLogFiles(0)).resolves.toEqual(intern);
    expect(calls(fetch)[0]![0]).toContain('/config/get_files_intern');
    answer(200, { storage: 1, mounted: false, files: [] });
    await expect(fetchLogFiles(1)).resolves.toEqual({ storage: 1, mounted: false, files: [] });
  });

  it('an answer of another shape is a failure, not a page error', async () => {
    answer(200, { storage: 0, files: [] });
    await expect(fetchLogFiles(0)).rejects.toBeInstanceOf(ApiFailure);
    answer(200, { storage: 0, mounted: true, files: [{ name: 'x', size: -1, mtime: 0 }] });
    await expect(fetchLogFiles(0)).rejects.toBeInstanceOf(ApiFailure);
  });

  it('fetchAllLogFiles gives the three volumes', async () => {
    const vols = [intern, { storage: 1, mounted: false, files: [] }, { storage: 2, mounted: true, files: [] }];
    const fetch = answer(200, { volumes: vols });
    await expect(fetchAllLogFiles()).resolves.toEqual(vols);
    expect(calls(fetch)[0]![0]).toContain(ALL_LOGFILES_PATH);
  });

  it('deleteLogFiles posts storage and names; a refusal throws with its code', async () => {
    const fetch = answer(200, { deleted: ['a.csv', 'b.csv'] });
    await expect(deleteLogFiles(2, ['a.csv', 'b.csv'])).resolves.toEqual(['a.csv', 'b.csv']);
    const [url, init] = calls(fetch)[0]!;
    expect(url).toContain(DELETE_LOGFILE_PATH);
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ storage: 2, names: ['a.csv', 'b.csv'] });
    answer(404, { error: { code: 'file_not_found', message: 'No such file', issues: [{ path: 'names.0', code: 'file_not_found' }] } });
    await expect(deleteLogFiles(0, ['gone.csv'])).rejects.toMatchObject({ status: 404, code: 'file_not_found' });
    answer(400, { error: { code: 'invalid_file_name', message: 'Not a file name of this folder' } });
    await expect(deleteLogFiles(0, ['../x'])).rejects.toMatchObject({ status: 400, code: 'invalid_file_name' });
  });

  it('the format files list and the download addresses', async () => {
    answer(200, { files: ['plant.cfg'] });
    await expect(fetchFormatFiles()).resolves.toEqual(['plant.cfg']);
    expect(logFileUrl(1, 'tank 1_2026.csv')).toBe('/download/log/usb/tank%201_2026.csv');
    expect(logFileUrl(0, 'a.csv')).toBe('/download/log/intern/a.csv');
    expect(formatFileUrl('plant.cfg')).toBe('/download/logcfg/plant.cfg');
  });
});
