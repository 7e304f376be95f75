// The daemon's Headers, Request and Response (this folder): what Hono and the routes rely on, as the
// Fetch standard has it, and the body kept as it was made.
import { describe, expect, it } from 'vitest';
import { DaemonHeaders } from './headers.ts';
import { nativeFetchClass } from './native.ts';
import { DaemonRequest } from './request.ts';
import { DaemonResponse } from './response.ts';

const streamOf = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

describe('DaemonHeaders', () => {
  it('names are case-insensitive, repeated fields join with ", ", iteration is sorted and lower case', () => {
    const h = new DaemonHeaders({ 'X-B': '2', 'Content-Type': 'text/plain' });
    h.append('x-b', '3');
    h.append('Accept', ' a/b\t');
    expect(h.get('X-b')).toBe('2, 3');
    expect(h.get('accept')).toBe('a/b');
    expect(h.has('CONTENT-TYPE')).toBe(true);
    expect([...h]).toEqual([
      ['accept', 'a/b'],
      ['content-type', 'text/plain'],
      ['x-b', '2, 3'],
    ]);
    h.set('x-b', '4');
    h.delete('Accept');
    const seen: string[] = [];
    h.forEach((v, k) => seen.push(`${k}=${v}`));
    expect(seen).toEqual(['content-type=text/plain', 'x-b=4']);
    expect(h.get('missing')).toBeNull();
  });

  it('each Set-Cookie stays alone: in iteration, getSetCookie and the node form', () => {
    const h = new DaemonHeaders([
      ['set-cookie', 'a=1; Path=/'],
      ['Set-Cookie', 'b=2, c'],
    ]);
    expect(h.getSetCookie()).toEqual(['a=1; Path=/', 'b=2, c']);
    expect([...h].filter(([k]) => k === 'set-cookie').map(([, v]) => v)).toEqual(['a=1; Path=/', 'b=2, c']);
    expect(h.toNode()).toEqual({ 'set-cookie': ['a=1; Path=/', 'b=2, c'] });
    expect(new DaemonHeaders(h).getSetCookie()).toEqual(['a=1; Path=/', 'b=2, c']);
  });

  it("copies node's own Headers, Set-Cookie included", () => {
    const Native = nativeFetchClass('Headers');
    const n = new Native([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['x', 'y'],
    ]);
    const h = new DaemonHeaders(n);
    expect(h.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(h.get('x')).toBe('y');
  });

  it('refuses a name that is not a token and a value that could split the header', () => {
    const h = new DaemonHeaders();
    expect(() => h.set('bad name', 'x')).toThrow(TypeError);
    expect(() => h.set('', 'x')).toThrow(TypeError);
    expect(() => h.set('x', 'a\r\nSet-Cookie: evil=1')).toThrow(TypeError);
    expect(() => h.append('x', 'a\0b')).toThrow(TypeError);
    expect(() => new DaemonHeaders({ 'x:y': '1' })).toThrow(TypeError);
    expect([...h]).toEqual([]);
  });
});

describe('DaemonResponse', () => {
  it('a string body is text with its content type, read once', async () => {
    const r = new DaemonResponse('héllo', { status: 201, headers: { 'x-a': '1' } });
    expect([r.status, r.ok, r.headers.get('content-type'), r.headers.get('x-a')]).toEqual([201, true, 'text/plain;charset=UTF-8', '1']);
    expect(r.bodyUsed).toBe(false);
    expect(await r.text()).toBe('héllo');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
  });

  it('keeps a named content type; bytes, JSON and an empty body read as they should', async () => {
    const j = new DaemonResponse('{"a":[1]}', { headers: { 'Content-Type': 'application/json' } });
    expect(j.headers.get('content-type')).toBe('application/json');
    expect(await j.json()).toEqual({ a: [1] });
    const b = new DaemonResponse(new Uint8Array([1, 2, 3]));
    expect(b.headers.has('content-type')).toBe(false);
    expect([...new Uint8Array(await b.arrayBuffer())]).toEqual([1, 2, 3]);
    const none = new DaemonResponse(null, { status: 204 });
    expect(none.body).toBeNull();
    expect(await none.text()).toBe('');
  });

  it('refuses a status outside 200-599 and a body on a status that has none', () => {
    expect(() => new DaemonResponse(null, { status: 199 })).toThrow(RangeError);
    expect(() => new DaemonResponse(null, { status: 600 })).toThrow(RangeError);
    expect(() => new DaemonResponse('x', { status: 304 })).toThrow(TypeError);
  });

  it('the body as a stream; a response made from an unread stream of another takes its string back', async () => {
    const a = new DaemonResponse('{"x":1}', { status: 418, headers: { 'content-type': 'application/json' } });
    const again = new DaemonResponse(a.body, a);
    expect([again.status, again.headers.get('content-type')]).toEqual([418, 'application/json']);
    expect(again.takeSource()).toBe('{"x":1}'); // the writer gets the string, not a stream
    const c = new DaemonResponse('abc');
    const reader = (c.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('abc');
    expect((await reader.read()).done).toBe(true);
    expect(c.bodyUsed).toBe(true);
  });

  it('reads a stream body whole; clone gives two readers of it', async () => {
    const r = new DaemonResponse(streamOf('a', 'b', 'c'));
    const copy = r.clone();
    expect(await r.text()).toBe('abc');
    expect(await copy.text()).toBe('abc');
    const s = new DaemonResponse('same');
    expect(await s.clone().text()).toBe('same');
    expect(await s.text()).toBe('same');
  });

  it('Response.json and Response.redirect', async () => {
    const j = DaemonResponse.json({ a: 1 }, { status: 400 });
    expect([j.status, j.headers.get('content-type'), await j.text()]).toEqual([400, 'application/json', '{"a":1}']);
    const r = DaemonResponse.redirect('http://unit.local/x', 308);
    expect([r.status, r.headers.get('location')]).toEqual([308, 'http://unit.local/x']);
    expect(() => DaemonResponse.redirect('http://unit.local/', 200)).toThrow(RangeError);
  });
});

describe('DaemonRequest', () => {
  it('from a URL and an init: method upper-cased, headers, a JSON body with its type', async () => {
    const r = new DaemonRequest(new URL('http://unit.local/config/x?y=1'), { method: 'post', headers: { Cookie: 's=1' }, body: '{"a":2}' });
    expect([r.method, r.url, r.headers.get('cookie'), r.headers.get('content-type')]).toEqual([
      'POST',
      'http://unit.local/config/x?y=1',
      's=1',
      'text/plain;charset=UTF-8',
    ]);
    expect(await r.json()).toEqual({ a: 2 });
  });

  it('a GET or HEAD has no body, and a method that is not a token or not allowed is refused', () => {
    expect(() => new DaemonRequest('http://unit.local/', { body: 'x' })).toThrow(TypeError);
    expect(() => new DaemonRequest('http://unit.local/', { method: 'HEAD', body: 'x' })).toThrow(TypeError);
    expect(() => new DaemonRequest('http://unit.local/', { method: 'GE T' })).toThrow(TypeError);
    expect(() => new DaemonRequest('http://unit.local/', { method: 'CONNECT' })).toThrow(TypeError);
    expect(() => new DaemonRequest('/relative')).toThrow(TypeError);
    expect(new DaemonRequest('http://unit.local/').body).toBeNull();
  });

  it('a request made from another with a new body (as a body limit does) takes its URL, method and headers', async () => {
    const first = new DaemonRequest('http://unit.local/a', { method: 'POST', headers: { 'content-type': 'application/json' }, body: streamOf('{"n"', ':1}') });
    const bytes = await first.bytes();
    const second = new DaemonRequest(first, { body: bytes });
    expect([second.method, second.url, second.headers.get('content-type')]).toEqual(['POST', 'http://unit.local/a', 'application/json']);
    expect(await second.json()).toEqual({ n: 1 });
    const third = new DaemonRequest(new DaemonRequest('http://unit.local/b', { method: 'PUT', body: 'moved' }));
    expect(await third.text()).toBe('moved');
  });

  it("a form body is parsed by node's own classes", async () => {
    const r = new DaemonRequest('http://unit.local/f', { method: 'POST', body: new URLSearchParams({ a: '1', b: 'x y' }) });
    const form = await r.formData();
    expect([form.get('a'), form.get('b')]).toEqual(['1', 'x y']);
  });

  it('its signal aborts once the client went away, also when it was first read after', () => {
    const r = new DaemonRequest('http://unit.local/');
    const s = r.signal;
    expect(s.aborted).toBe(false);
    r.abortFromNode(new Error('gone'));
    expect(s.aborted).toBe(true);
    const later = new DaemonRequest('http://unit.local/');
    later.abortFromNode(new Error('gone'));
    expect(later.signal.aborted).toBe(true);
  });
});
