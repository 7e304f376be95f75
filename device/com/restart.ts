// Restart of the PLC links by the PLC and by time (pew restart_by_plc, restart_level,
// restart_polling, restart_control_r, restart_by_time; spec §3, §9).
//
// By PLC: every `restart_polling` seconds the R bit `restart_control_r` is read over the service
// control interface (`interface_plc`, station `address_plc`). A restart happens when the bit
// changes TO `restart_level` (1 = set, 0 = reset): edge-triggered, so a bit the PLC leaves at the
// level restarts once, not in a loop, and the first reading after a start only sets the baseline.
// By time: every `restart_by_time` hours of running (0 = never).
// A restart reopens every link (channels, autobaud, stations) without restarting the daemon.

import type { Pew } from '../model/sections/pew.ts';
import { bitIndex, parseBitOffset } from '../protocol/index.ts';
import type { Logger } from '../system/log.ts';
import type { Links } from './links.ts';

export interface RestartWatch {
  stop(): void;
}

const HOUR_MS = 3_600_000;

export function watchRestart(pew: Pew, links: Links, log: Logger): RestartWatch {
  const intervals: ReturnType<typeof setInterval>[] = [];

  if (pew.restart_by_time > 0) {
    intervals.push(setInterval(() => void links.restart(`restart by time (every ${pew.restart_by_time} h)`), pew.restart_by_time * HOUR_MS));
  }

  const offset = parseBitOffset(pew.restart_control_r.bit);
  if (pew.restart_by_plc && offset.ok) {
    const index = bitIndex(offset.value.word, offset.value.bit);
    const wanted = pew.restart_level === 1;
    let last: boolean | undefined;
    let busy = false;
    const poll = async () => {
      if (busy) return;
      busy = true;
      try {
        const link = links.get(pew.interface_plc);
        if (!link) return;
        const [value] = await link.readBits('R', index, 1, 'restart');
        if (value === wanted && last !== undefined && last !== wanted) {
          log.warn('restart requested by the PLC', { bit: `R${pew.restart_control_r.bit}`, level: pew.restart_level });
          last = value;
          await links.restart(`restart by PLC (R${pew.restart_control_r.bit} = ${pew.restart_level})`);
          return;
        }
        last = value;
      } catch {
        // the link reports its own state; the next poll tries again
      } finally {
        busy = false;
      }
    };
    intervals.push(setInterval(() => void poll(), Math.max(200, pew.restart_polling * 1000)));
  }

  return {
    stop() {
      for (const t of intervals) clearInterval(t);
    },
  };
}
