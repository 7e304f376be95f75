// The one Hono app both servers of the fetch-classes bench serve (fetch-classes.ts): a JSON read and
// a JSON save, the two kinds of request the console makes most.
import { Hono } from 'hono';

export function benchApp(): Hono {
  const app = new Hono();
  let saved: unknown = { port: 9094, timeout: 300 };
  app.get('/config/pew_com', (c) => c.json(saved as Record<string, unknown>));
  app.post('/config/pew_com', async (c) => {
    saved = await c.req.json();
    return c.json({ ok: true });
  });
  return app;
}

/** the port the server listens on, from its environment */
export const benchPort = (): number => Number(process.env.PORT);
