// The well-kept way: @hono/node-server's listener with node's own fetch classes (undici's).
import { serve } from '@hono/node-server';
import { benchApp, benchPort } from './app.ts';

serve({ fetch: benchApp().fetch, port: benchPort(), hostname: '127.0.0.1' });
