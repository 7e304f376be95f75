// The redirect threads of the saved pew_redirect section, kept in line with every save: a thread
// whose settings changed is closed and reopened, the others keep their clients.
import type { ConfigStore } from '../config/store.ts';
import type { Redirect } from '../model/sections/redirect.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import type { Links } from '../com/links.ts';
import { RedirectThread, type ThreadStatus } from './thread.ts';

export interface Redirects {
  thread(index: number): RedirectThread | undefined;
  status(): ThreadStatus[];
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedirects(store: ConfigStore, links: Links, log: Logger, host: string): Promise<Redirects> {
  let threads: RedirectThread[] = [];
  let chain = Promise.resolve();
  let closed = false;
  const apply = () => {
    chain = chain.then(async () => {
      if (closed) return;
      const wanted = store.get<Redirect>('pew_redirect').threads;
      const keep = new Map(threads.map((t) => [JSON.stringify(t.cfg), t]));
      const next: RedirectThread[] = [];
      const reused = new Set<RedirectThread>();
      for (const cfg of wanted) {
        const old = keep.get(JSON.stringify(cfg));
        if (old && !reused.has(old) && old.index === next.length) { reused.add(old); next.push(old); } else next.push(undefined as never);
      }
      await Promise.all(threads.filter((t) => !reused.has(t)).map((t) => t.close()));
      const deps = {
        host, log,
        link: (id: number) => links.get(id),
        protocolOf: (id: number) => store.get<Pew>('pew').interfaces.find((i) => i.id === id)?.protocol,
      };
      for (let i = 0; i < wanted.length; i++) {
        if (next[i]) continue;
        next[i] = new RedirectThread(i, wanted[i]!, deps);
        await next[i]!.start();
      }
      threads = next;
    }).catch((e: unknown) => log.error('applying the port settings failed', { error: String(e) }));
    return chain;
  };
  store.onChange((keys) => { if (keys.includes('pew_redirect')) void apply(); });
  await apply();
  return {
    thread: (i) => threads[i],
    status: () => threads.map((t) => t.status()),
    settled: () => chain,
    close: async () => {
      closed = true;
      await chain;
      await Promise.all(threads.map((t) => t.close()));
      threads = [];
    },
  };
}
