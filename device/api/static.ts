// The console served by the daemon from its built files: `/` (and `/index.html`) and `/assets/<file>`.
// Public and outside the route table (docs/api.md lists the API only). Each response replaces the
// app's `Cache-Control: no-store`: hashed assets are cached for a year, index.html is revalidated.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { FIRST_FRAME_GATE, NO_FRAME_ROUTE, PREFS_COOKIE, parsePrefs } from '../model/first-frame.ts';
import { START_ANSWERS_MARKER } from '../model/start-answers.ts';
import { overTls } from './connection.ts';
import type { Env } from './context.ts';
import { FirstFrameRenderer, type FrameLimits, withFirstFrame } from './first-frame.ts';
import { FramePreloadLinks, withIdlePreloads, withPreloads } from './frame-preloads.ts';
import { carriesSession, startAnswers, withStartAnswers } from './start-answers.ts';
import { type WebFile, WebFiles } from './web-files.ts';

const gzip = promisify(gzipCallback);

/** dist/web of this checkout, where `npm run build` writes the console */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../dist/web', import.meta.url));

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** how long a browser keeps to HTTPS after a console answer over HTTPS: a year (docs/https.md HDR-1) */
export const HSTS_MAX_AGE_S = 31_536_000;

/** the one inline script the console's page may run, by its hash: the first frame's gate (device/model/first-frame.ts) */
const GATE_HASH = `'sha256-${createHash('sha256').update(FIRST_FRAME_GATE).digest('base64')}'`;

/**
 * for the HTML only: the built console needs nothing but its own files, inline styles (its stylesheet
 * is in index.html, and preact's style props) and the first frame's gate
 */
export const CONSOLE_CSP = `default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' ${GATE_HASH}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

/**
 * The headers every answer of the daemon carries (device/api/app.ts sets them first on each route,
 * the 404 and the error answer). A file's own Cache-Control replaces the no-store.
 */
export function secureHeaders(c: Context): void {
  // docs/https.md HDR-1: a browser that reached the console over HTTPS never falls back to plain HTTP
  if (overTls(c)) c.header('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_S}`);
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer'); // no console URL leaves with a link followed from it
}

/** Whether an Accept-Encoding header allows gzip (`gzip` or `*` without q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const qp = params.find((p) => p.startsWith('q='));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const gzip = q.get('gzip') ?? q.get('x-gzip') ?? q.get('*');
  return gzip !== undefined && gzip > 0;
}

/** If-None-Match against one ETag (weak comparison, as RFC 9110 asks for this header). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function send(c: Context<Env>, file: WebFile, cacheControl: string): Response {
  const gzip = file.gzip && acceptsGzip(c.req.header('accept-encoding')) ? file.gzip : undefined;
  const v = gzip ?? file.plain;
  c.header('Cache-Control', cacheControl);
  c.header('ETag', v.etag);
  c.header('Vary', 'Accept-Encoding');
  if (etagMatches(c.req.header('if-none-match'), v.etag)) return c.body(null, 304);
  c.header('Content-Type', file.type);
  if (gzip) c.header('Content-Encoding', 'gzip');
  // explicit, so HEAD (answered by the GET handler without the body) still tells the size
  c.header('Content-Length', String(v.body.length));
  return c.body(v.body, 200);
}

const MARKER_BYTES = Buffer.from(START_ANSWERS_MARKER);
const hasMarker = (body: Uint8Array): boolean => Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes(MARKER_BYTES);

/**
 * index.html with the daemon's answers to the console's start requests in it (start-answers.ts) and,
 * for a signed-in browser that sent its preferences, the first frame of the page it showed last
 * (first-frame.ts) and the preloads of that page's code and texts (frame-preloads.ts): made for this
 * request, never cached.
 */
async function sendWithAnswers(app: Hono<Env>, c: Context<Env>, file: WebFile, frames: FirstFrameRenderer, preloads: FramePreloadLinks): Promise<Response> {
  const prefs = parsePrefs(getCookie(c, PREFS_COOKIE));
  const answers = await startAnswers(app, c, prefs?.route);
  let html = withStartAnswers(new TextDecoder().decode(file.plain.body), answers.json);
  const route = answers.signedIn && prefs && prefs.route !== NO_FRAME_ROUTE ? prefs.route : undefined;
  const frame = prefs && route && (await frames.render(answers.json, prefs, route));
  if (frame && route) html = withFirstFrame(html, frame, route);
  // the framed page's code and texts load with the page, frame or not
  if (prefs && route && route !== 'info') html = withPreloads(html, await preloads.files(route, prefs.locale), !!frame);
  // and the other pages' once the console is idle
  if (prefs && answers.signedIn) html = withIdlePreloads(html, await preloads.others(route, prefs.locale));
  const packed = acceptsGzip(c.req.header('accept-encoding'));
  const body = packed ? new Uint8Array(await gzip(html)) : new TextEncoder().encode(html);
  c.header('Vary', 'Accept-Encoding');
  c.header('Content-Type', file.type);
  if (packed) c.header('Content-Encoding', 'gzip');
  c.header('Content-Length', String(body.length));
  return c.body(body, 200);
}

/** The paths of the console's own files (everything else the daemon answers is the API). */
export const isConsolePath = (path: string): boolean => path === '/' || path === '/index.html' || path.startsWith('/assets/');

/** Adds the console's routes to the app (GET, and HEAD through Hono's GET handling). */
export function serveConsole(app: Hono<Env>, webDir: string = DEFAULT_WEB_DIR, onFrameFailure?: (message: string) => void, frameLimits?: FrameLimits): void {
  const files = new WebFiles(webDir);
  const frames = new FirstFrameRenderer(webDir, onFrameFailure, undefined, frameLimits);
  const preloads = new FramePreloadLinks(webDir);
  const index = async (c: Context<Env>) => {
    secureHeaders(c);
    const file = await files.get('index.html', true);
    if (!file) return c.text('The console is not built: run `npm run build` in the repository, then reload.\n', 503);
    c.header('Content-Security-Policy', CONSOLE_CSP);
    // a signed-in browser gets the answers to its first requests with the page (no-store, from secureHeaders)
    if (c.req.method === 'GET' && carriesSession(c) && hasMarker(file.plain.body)) return sendWithAnswers(app, c, file, frames, preloads);
    return send(c, file, REVALIDATE);
  };
  app.get('/', index);
  app.get('/index.html', index);
  app.get('/assets/:file', async (c) => {
    secureHeaders(c);
    // the name arrives percent-decoded: `..%2F`, `%00` and the like fail the name check in files.get
    const file = await files.get(`assets/${c.req.param('file')}`);
    if (!file) return c.notFound(); // the app's JSON 404
    return send(c, file, IMMUTABLE);
  });
}
