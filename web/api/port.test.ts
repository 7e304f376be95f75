// The answer schemas of the ports page (GET /config/port_status, POST /config/porttest) and the two
// calls that check every answer against them.

import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from './client.ts';
import { fetchPortStatus, PORT_STATUS_PATH, PORT_TEST_PATH, portStatusSchema, portTestRequest, portTestResultSchema, runPortTest } from './port.ts';

const thread = {
  index: 0,
  port: 9094,
  listening: true,
  clients: 1,
  requests: 12,
  refused: 2,
  errors: 0,
  bytesIn: 300,
  bytesOut: 420,
  faults: 0,
};

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('port status schema', () => {
  it('accepts the counters of every thread', () => {
    expect(
      v.safeParse(portStatusSchema, { threads: [thread, { ...thread, index: 1, listening: false, reason: { code: 'port_in_use', args: { port: 9094 } } }] })
        .success,
    ).toBe(true);
    expect(v.safeParse(portStatusSchema, { threads: [] }).success).toBe(true);
  });

  it('refuses negative or fractional counters, a missing field and a port out of range', () => {
    expect(v.safeParse(portStatusSchema, { threads: [{ ...thread, refused: -1 }] }).success).toBe(false);
    expect(v.safeParse(portStatusSchema, { threads: [{ ...thread, requests: 1.5 }] }).success).toBe(false);
    const { bytesOut: _, ...short } = thread;
    expect(v.safeParse(portStatusSchema, { threads: [short] }).success).toBe(false);
    expect(v.safeParse(portStatusSchema, { threads: [{ ...thread, port: 70000 }] }).success).toBe(false);
  });
});

describe('port test schemas', () => {
  it('the request is the thread index and nothing else', () => {
    expect(v.safeParse(portTestRequest, { index: 3 }).success).toBe(true);
    expect(v.safeParse(portTestRequest, { index: -1 }).success).toBe(false);
    expect(v.safeParse(portTestRequest, { index: 0, id: 1 }).success).toBe(false);
  });

  it('a success carries what was sent and the raw answer; a failure one of the four reasons', () => {
    expect(v.safeParse(portTestResultSchema, { ok: true, index: 0, request: '%01#RDD0000000000**\r', raw: '%01$RD0000**\r' }).success).toBe(true);
    for (const reason of ['not_listening', 'refused', 'no_answer', 'error_answer'])
      expect(v.safeParse(portTestResultSchema, { ok: false, index: 1, reason, message: 'x', raw: '' }).success).toBe(true);
    expect(
      v.safeParse(portTestResultSchema, { ok: false, index: 1, reason: 'error_answer', message: 'x', request: '%01#RT**\r', raw: '%01!61\r' }).success,
    ).toBe(true);
    expect(v.safeParse(portTestResultSchema, { ok: false, index: 1, reason: 'plc_error', message: 'x', raw: '' }).success).toBe(false);
    expect(v.safeParse(portTestResultSchema, { ok: true, index: 0, raw: '' }).success).toBe(false);
  });
});

describe('the calls', () => {
  it('fetchPortStatus asks GET /config/port_status and returns the checked answer', async () => {
    const fetch = answer(200, { threads: [thread] });
    await expect(fetchPortStatus()).resolves.toEqual({ threads: [thread] });
    expect(String((fetch.mock.calls[0] as unknown as [string])[0])).toContain(PORT_STATUS_PATH);
  });

  it('an answer of another shape is a failure, not a page error', async () => {
    answer(200, { links: [] });
    await expect(fetchPortStatus()).rejects.toBeInstanceOf(ApiFailure);
  });

  it('runPortTest posts the index; a refusal (409) throws with its code', async () => {
    const fetch = answer(200, { ok: false, index: 2, reason: 'no_answer', message: 'timeout', raw: '' });
    await expect(runPortTest(2)).resolves.toMatchObject({ ok: false, reason: 'no_answer' });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain(PORT_TEST_PATH);
    expect(JSON.parse(String(init.body))).toEqual({ index: 2 });

    answer(409, { error: { code: 'interface_not_ready', message: 'no thread 5 in the saved settings' } });
    await expect(runPortTest(5)).rejects.toMatchObject({ status: 409, code: 'interface_not_ready' });
  });
});
