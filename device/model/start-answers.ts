// The answers the console needs before its first page shows (spec §7 "on load"): who is signed in,
// the system information, the services, the log configuration files, the uploaded HTTP files and
// every section. The daemon puts its answers to these requests into the console's index.html when
// a session cookie comes with it (device/api/start-answers.ts), and the console takes each from
// there once instead of asking (web/api/client.ts): on a slow device each request's answer waits for
// the browser's busy main thread, and there were two rounds of them before /info could show.
// Shared by the daemon and the console, so both name the same requests.
//
// With them come the data requests of the page the daemon renders the first frame of
// (ROUTE_DATA_PATHS; device/model/first-frame.ts): what the page asks for before its first render
// (its early call, web/state/com-status.ts earlyInto, or /graphs' list of files), so that the frame
// and the console's first render show the page with its data. The console forgets those it did not
// take at start (web/api/start-answers.ts): taken later, they would be old.
import type { FrameRoute } from './first-frame.ts';

export const AUTH_PATH = '/rest/api/v1/authentication';
export const SYSTEM_INFO_PATH = '/rest/api/v1?cache=true&js=true';
export const SERVICES_PATH = '/rest/api/v1/services';
export const LOG_CONFIG_FILES_PATH = '/config/get_cfg';
export const HTTP_FILES_PATH = '/config/get_http_content';
export const ALL_SECTIONS_PATH = '/config';
/** asked once signed in (web/state/console-data.ts) */
export const START_DATA_PATHS = [SYSTEM_INFO_PATH, SERVICES_PATH, LOG_CONFIG_FILES_PATH, HTTP_FILES_PATH, ALL_SECTIONS_PATH] as const;

/** The data requests of each framed page before its first render (the paths of web/api/com.ts, port.ts, log-status.ts, service-status.ts, logfiles.ts). */
export const ROUTE_DATA_PATHS: Record<FrameRoute, readonly string[]> = {
  info: [],
  com: ['/config/com_status'],
  port: ['/config/port_status'],
  log: ['/config/log_status'],
  mqtt: ['/config/service_status'],
  graphs: ['/config/all_logfiles'],
};

/** The id of the `<script type="application/json">` element that carries them. */
export const START_ANSWERS_ID = 'start-answers';
/** Where index.html gets that element: the console's template has the marker, other pages do not. */
export const START_ANSWERS_MARKER = '<!--start-answers-->';

/** One answer: the status and the JSON body the daemon gave. */
export interface StartAnswer {
  status: number;
  body: unknown;
}
export type StartAnswers = Record<string, StartAnswer>;
