// Setup file of the integration project (vitest.config.ts): the daemon's fetch classes in the
// globals before any test runs, installed as device/main.ts installs them, so that every client
// library a test drives against a real peer (the engines and connection tests of mqtt, pg, mysql2,
// mongodb, nodemailer, basic-ftp and the HTTP client) runs with the globals the daemon gives it,
// whichever file ran first in the worker (docs/architecture.md "Hono on node:http").
import { installDaemonFetchClasses } from '../../device/net/fetch/install.ts';

installDaemonFetchClasses();
