// The redirect threads of the saved pew_redirect section, kept in line with every save
// (config/follow.ts): a thread whose settings changed is closed and reopened, the others keep
// their clients.

import type { Links } from '../com/links.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Capture } from '../diag/capture.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Redirect } from '../model/sections/redirect.ts';
import type { Logger } from '../system/log.ts';
import { RedirectThread, type ThreadStatus } from './thread.ts';

export interface Redirects {
  thread(index: number): RedirectThread | undefined;
  status(): ThreadStatus[];
  /** Starts the counters of every thread (or the one at `index`) again from 0; the ports of those reset. */
  resetCounters(index?: number): number[];
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedirects(store: ConfigStore, links: Links, log: Logger, host: string, capture?: Capture): Promise<Redirects> {
  let threads: RedirectThread[] = [];
  const follower = await followSection(store, 'pew_redirect', log, async () => {
    const wanted = store.get<Redirect>('pew_redirect').threads;
    // a thread keeps running (and its clients) when its position and settings are unchanged
    const same = (t: RedirectThread | undefined, i: number) => t !== undefined && i < wanted.length && JSON.stringify(t.cfg) === JSON.stringify(wanted[i]);
    await Promise.all(threads.filter((t, i) => !same(t, i)).map((t) => t.close()));
    const deps = {
      host,
      log,
      link: (id: number) => links.get(id),
      protocolOf: (id: number) => store.get<Pew>('pew').interfaces.find((i) => i.id === id)?.protocol,
      ...(capture ? { capture } : {}),
    };
    const next: RedirectThread[] = [];
    for (const [i, cfg] of wanted.entries()) {
      const old = threads[i];
      if (same(old, i)) next.push(old!);
      else {
        const t = new RedirectThread(i, cfg, deps);
        await t.start();
        next.push(t);
      }
    }
    threads = next;
  });
  return {
    thread: (i) => threads[i],
    status: () => threads.map((t) => t.status()),
    resetCounters: (index) =>
      threads.flatMap((t, i) => {
        if (index !== undefined && i !== index) return [];
        t.resetCounters();
        return [t.cfg.port];
      }),
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      await Promise.all(threads.map((t) => t.close()));
      threads = [];
    },
  };
}
