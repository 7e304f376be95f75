// The COM part of the daemon: the links of the saved pew section and their restart watch, kept in
// line with every save of pew (config/follow.ts).
import type { Hw } from '../../hw/types.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import { Links, type LinksDeps } from './links.ts';
import { type RestartWatch, watchRestart } from './restart.ts';

export interface Com {
  links: Links;
  /** resolves when the last saved pew is applied */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startCom(store: ConfigStore, hw: Hw, log: Logger, opts: Partial<LinksDeps> = {}): Promise<Com> {
  const links = new Links({ hw, log, clock: hw.clock, ...opts });
  let watch: RestartWatch | undefined;
  const follower = await followSection(store, 'pew', log, async () => {
    const pew = store.get<Pew>('pew');
    watch?.stop();
    await links.apply(pew);
    watch = watchRestart(pew, links, log);
  });
  return {
    links,
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      watch?.stop();
      await links.close();
    },
  };
}
