// The COM part of the daemon: the links of the saved pew section and their restart watch, kept in
// line with every save of pew (applied one after another, in save order).
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import { Links, type LinksDeps } from './links.ts';
import { watchRestart, type RestartWatch } from './restart.ts';

export interface Com {
  links: Links;
  /** resolves when the last saved pew is applied */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startCom(store: ConfigStore, hw: Hw, log: Logger, opts: Partial<LinksDeps> = {}): Promise<Com> {
  const links = new Links({ hw, log, clock: hw.clock, ...opts });
  let watch: RestartWatch | undefined;
  let chain = Promise.resolve();
  let closed = false;
  const apply = () => {
    chain = chain.then(async () => {
      if (closed) return;
      const pew = store.get<Pew>('pew');
      watch?.stop();
      await links.apply(pew);
      watch = watchRestart(pew, links, log);
    }).catch((e: unknown) => log.error('applying the COM settings failed', { error: String(e) }));
    return chain;
  };
  store.onChange((keys) => { if (keys.includes('pew')) void apply(); });
  await apply();
  return {
    links,
    settled: () => chain,
    close: async () => {
      closed = true;
      await chain;
      watch?.stop();
      await links.close();
    },
  };
}
