// The daemon's way (docs/architecture.md "Hono on node:http"): its own Headers, Request and Response
// in the globals and its own request listener on node:http.
import { createServer } from 'node:http';
import { installDaemonFetchClasses } from '../../../device/net/fetch/install.ts';
import { honoListener } from '../../../device/net/hono-listener.ts';
import { benchApp, benchPort } from './app.ts';

installDaemonFetchClasses();
createServer(honoListener(benchApp().fetch)).listen(benchPort(), '127.0.0.1');
