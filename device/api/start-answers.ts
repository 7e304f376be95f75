// The console's index.html with the daemon's answers to its start requests in it
// (device/model/start-answers.ts). Each answer is made by the app itself, through the same route,
// access check and handler a request from the browser would meet, with the request's own cookie,
// host and connection: nothing is answered here that the browser could not have asked for. Only
// for a request carrying a session cookie; without one the file goes out as built (cached,
// revalidated). The page is then no-store: it holds the session's CSRF token and its data.
import type { Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { NO_FRAME_ROUTE, type PrefsRoute } from '../model/first-frame.ts';
import { AUTH_PATH, ROUTE_DATA_PATHS, START_ANSWERS_ID, START_ANSWERS_MARKER, START_DATA_PATHS } from '../model/start-answers.ts';
import { COOKIE } from '../system/sessions.ts';
import type { Env } from './context.ts';

/** Whether a request to the console's page comes with a session cookie (an expired one too: its answer is the refusal). */
export const carriesSession = (c: Context<Env>): boolean => getCookie(c, COOKIE) !== undefined;

/** One answer as the app gave it: its status and its JSON text, put into the page as it is (not parsed and written again). */
interface RawAnswer {
  status: number;
  json: string;
}

/** The answer of the app to a GET of `path`, asked as the browser of `c` would ask; undefined when it gave none that is JSON. */
async function answer(app: Hono<Env>, c: Context<Env>, path: string): Promise<RawAnswer | undefined> {
  const headers = new Headers({ accept: 'application/json' });
  for (const name of ['cookie', 'host', 'user-agent']) {
    const v = c.req.header(name);
    if (v !== undefined) headers.set(name, v);
  }
  try {
    const res = await app.fetch(new Request(new URL(path, c.req.url), { headers }), c.env);
    if (!res.headers.get('content-type')?.startsWith('application/json')) return undefined;
    const json = await res.text();
    return json.trim() === '' ? undefined : { status: res.status, json };
  } catch {
    return undefined; // the console asks for it itself
  }
}

/** The answers to the start requests: the JSON text of a StartAnswers, and whether somebody is signed in. */
export interface StartAnswersText {
  json: string;
  signedIn: boolean;
}

/**
 * The answers to the start requests: who is signed in and, when somebody is, the start data and the
 * data of the page the browser showed last (`route`, from its preferences cookie: ROUTE_DATA_PATHS),
 * each refused as the browser's own request would be when the session may not read it.
 */
export async function startAnswers(app: Hono<Env>, c: Context<Env>, route?: PrefsRoute): Promise<StartAnswersText> {
  const out: [string, RawAnswer][] = [];
  const auth = await answer(app, c, AUTH_PATH);
  if (auth) out.push([AUTH_PATH, auth]);
  if (auth?.status === 200) {
    const paths = [...START_DATA_PATHS, ...(route && route !== NO_FRAME_ROUTE ? ROUTE_DATA_PATHS[route] : [])];
    const data = await Promise.all(paths.map((p) => answer(app, c, p)));
    paths.forEach((p, i) => {
      if (data[i]) out.push([p, data[i]]);
    });
  }
  const json = `{${out.map(([path, a]) => `${JSON.stringify(path)}:{"status":${a.status},"body":${a.json}}`).join(',')}}`;
  return { json, signedIn: auth?.status === 200 };
}

/**
 * The page's HTML with the answers (startAnswers) at the marker, as a JSON data block: never run as
 * a script (the console's Content-Security-Policy allows no inline script anyway), and with every
 * `<` escaped so that no value can end the element or open a comment.
 */
export function withStartAnswers(html: string, answers: string): string {
  const json = answers.replace(/</g, '\\u003c');
  return html.replace(START_ANSWERS_MARKER, () => `<script type="application/json" id="${START_ANSWERS_ID}">${json}</script>`);
}
