import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../api/client.ts';
import { ALL_LOGFILES_PATH, downloadLogFile, downloadPath, fetchLogVolumes } from './log-files.ts';

const volume = (storage: number, mounted: boolean, files: unknown[] = []) => ({ storage, mounted, files });
const file = { name: 'temps_20261121.csv', size: 1234, mtime: 1_763_700_000_000 };

function answer(make: () => Response) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => make());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('log file list', () => {
  it('reads the three volumes', async () => {
    const fetch = answer(json(200, { volumes: [volume(0, true, [file]), volume(1, false), volume(2, true)] }));
    const vols = await fetchLogVolumes();
    expect(vols.map((v) => [v.storage, v.mounted, v.files.map((f) => f.name)])).toEqual([
      [0, true, [file.name]],
      [1, false, []],
      [2, true, []],
    ]);
    expect(fetch.mock.calls[0]![0]).toBe(ALL_LOGFILES_PATH);
  });

  it('an answer of another shape is an error, not a broken page', async () => {
    for (const body of [{}, { volumes: [volume(3, true)] }, { volumes: [volume(0, true, [{ name: 'a.csv' }])] }, { volumes: [{ storage: 0, files: [] }] }]) {
      answer(json(200, body));
      await expect(fetchLogVolumes()).rejects.toMatchObject({ code: 'internal' });
    }
  });
});

describe('log file download', () => {
  it('the download route by volume name, the name encoded', () => {
    expect(downloadPath(0, 'a_20261121.csv')).toBe('/download/log/intern/a_20261121.csv');
    expect(downloadPath(1, 'a b.csv')).toBe('/download/log/usb/a%20b.csv');
    expect(downloadPath(2, 'x.csv')).toBe('/download/log/temp/x.csv');
  });

  it('gives the bytes', async () => {
    const fetch = answer(() => new Response('2026/01/02,03:04:05,1\r\n', { headers: { 'Content-Type': 'text/csv' } }));
    const r = await downloadLogFile(0, 'a.csv');
    expect(r.ok && new TextDecoder().decode(r.bytes)).toBe('2026/01/02,03:04:05,1\r\n');
    expect(fetch.mock.calls[0]![0]).toBe('/download/log/intern/a.csv');
  });

  it('refuses a file past the limit from its announced length, without reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(10));
      },
    });
    answer(() => new Response(body, { headers: { 'Content-Length': '101' } }));
    expect(await downloadLogFile(0, 'big.csv', 100)).toEqual({ ok: false, error: 'too_large', bytes: 101 });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('refuses a file past the limit without announced length after reading', async () => {
    answer(() => new Response(new Uint8Array(150)));
    expect(await downloadLogFile(0, 'big.csv', 100)).toEqual({ ok: false, error: 'too_large', bytes: 150 });
    answer(() => new Response(new Uint8Array(100)));
    expect((await downloadLogFile(0, 'edge.csv', 100)).ok).toBe(true);
  });

  it('a refusal of the daemon keeps its code; no connection is connection_failed', async () => {
    answer(json(404, { error: { code: 'file_not_found', message: 'No such file' } }));
    await expect(downloadLogFile(0, 'gone.csv')).rejects.toMatchObject({ status: 404, code: 'file_not_found' });
    answer(() => new Response('oops', { status: 500 }));
    await expect(downloadLogFile(0, 'x.csv')).rejects.toMatchObject({ status: 500, code: 'internal' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('network');
      }),
    );
    const e = await downloadLogFile(0, 'x.csv').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiFailure);
    expect((e as ApiFailure).code).toBe('connection_failed');
  });
});
