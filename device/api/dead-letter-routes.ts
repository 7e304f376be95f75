// The dead letters of the queued services (docs/services.md "Dead letters"; security.md AUD-1): the
// admin downloads them (CSV or JSON: the job's values, the target it was made for, why it failed,
// how often it was tried), puts them back into the queue for the saved target, or discards them.
// Retry and discard are audited.
import { DEAD_LETTER_FORMATS, DEAD_LETTER_SERVICES, type DeadLetterService, deadLetterActionSchema } from '../model/dead-letters.ts';
import type { DeadLetter } from '../service-runtime/dead-letters.ts';
import type { DeadLetterAccess } from '../service-runtime/queued-engine.ts';
import { readBody } from './body.ts';
import type { DaemonContext } from './context.ts';
import { ApiError } from './errors.ts';
import { type RouteDef, route } from './route.ts';

function accessOf(ctx: DaemonContext, service: string): DeadLetterAccess {
  const dead = (DEAD_LETTER_SERVICES as readonly string[]).includes(service) ? ctx.services[service as DeadLetterService].dead : undefined;
  if (!dead) throw new ApiError(404, 'not_found', `No dead letters for ${service}`);
  return dead;
}

const csvCell = (s: string): string => (/[",\n\r;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The values of a letter's job for the CSV: a row's points as name=value, any other job as its JSON. */
function jobValues(job: unknown): string {
  const r = job as { columns?: unknown; values?: unknown };
  if (Array.isArray(r.columns) && Array.isArray(r.values)) {
    const values = r.values as unknown[];
    return (r.columns as [string, string][]).map(([name], i) => `${name}=${String(values[i])}`).join(' ');
  }
  const { target: _target, ...rest } = job as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** The letters as CSV: one line each, the job's values last. */
export function deadLettersCsv(letters: readonly DeadLetter<unknown>[]): string {
  const head = 'id,at,target,code,message,tries,values';
  const lines = letters.map((l) =>
    [String(l.id), new Date(l.at).toISOString(), l.target, l.code, l.message, String(l.tries), jobValues(l.job)].map(csvCell).join(','),
  );
  return `${[head, ...lines].join('\r\n')}\r\n`;
}

async function act(c: Parameters<RouteDef['handler']>[0], ctx: DaemonContext, what: 'retry' | 'discard') {
  const body = await readBody(c, deadLetterActionSchema);
  const dead = accessOf(ctx, body.service);
  const n = what === 'retry' ? await dead.retry(body.ids) : await dead.discard(body.ids);
  const user = c.get('session')!.user;
  await ctx.audit.write({
    action: what === 'retry' ? 'dead_letters_retry' : 'dead_letters_discard',
    user,
    source: c.get('source'),
    detail: { service: body.service, letters: n, ...(body.ids ? { ids: body.ids.length } : { all: true }) },
  });
  ctx.log.info(`dead letters ${what === 'retry' ? 'put back into the queue' : 'discarded'}`, { service: body.service, letters: n, user });
  return c.json({ [what === 'retry' ? 'retried' : 'discarded']: n });
}

export const deadLetterRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/dead_letters/:service',
    key: 'dead_letters',
    access: 'admin',
    handler: (c, ctx) => {
      const service = c.req.param('service') ?? '';
      const dead = accessOf(ctx, service);
      const format = c.req.query('format') ?? 'json';
      if (!(DEAD_LETTER_FORMATS as readonly string[]).includes(format)) throw new ApiError(400, 'invalid_value', `format ${format} is not csv or json`);
      const letters = dead.list();
      const name = `dead_letters_${service}.${format}`;
      if (format === 'csv') {
        return c.body(deadLettersCsv(letters), 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` });
      }
      return c.body(JSON.stringify({ service, letters }, null, 1), 200, {
        'Content-Type': 'application/json',
        'Content-Disposition': `attachment; filename="${name}"`,
      });
    },
  }),
  route({ method: 'POST', path: '/config/dead_letters_retry', key: 'dead_letters_retry', access: 'admin', handler: (c, ctx) => act(c, ctx, 'retry') }),
  route({ method: 'POST', path: '/config/dead_letters_discard', key: 'dead_letters_discard', access: 'admin', handler: (c, ctx) => act(c, ctx, 'discard') }),
];
