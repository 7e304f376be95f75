import { describe, expect, it } from 'vitest';
import { encodeApdu } from '../protocol/iec104/apci.ts';
import { Iec104Link, type LinkAction } from './link.ts';
import { decideStart } from './start-rule.ts';

const settings = { t1: 15_000, t2: 10_000, t3: 20_000, k: 12, w: 8, testFramesStopped: true, testFramesStarted: true };
const startdt = encodeApdu({ format: 'U', fn: 'startdt_act' });
const has = (a: LinkAction[], kind: string) => a.some((x) => x.kind === kind);

describe('lock_mode: one started connection in the group', () => {
  it('nobody started: accepted; a started connection without lock mode is deactivated', () => {
    expect(decideStart([])).toEqual({ accept: true, deactivate: [] });
    expect(decideStart([{ id: 'a', lockMode: false }])).toEqual({ accept: true, deactivate: ['a'] });
  });

  it('the started connection holds the lock: the newcomer is refused', () => {
    expect(decideStart([{ id: 'a', lockMode: true }])).toEqual({ accept: false, reason: 'data transfer is held by a connection in lock mode' });
  });

  it('two links: without lock the second STARTDT takes over and the first keeps its unacknowledged frames; with lock it is closed', () => {
    for (const lockMode of [false, true]) {
      const a = new Iec104Link(settings, 0);
      const b = new Iec104Link(settings, 0);
      a.receive(0, startdt);
      a.acceptStart(0);
      a.sendAsdu(1, Uint8Array.from([1, 1, 3, 0, 1, 0, 1, 0, 0, 1]));
      expect(has(b.receive(2, startdt), 'start_request')).toBe(true);
      const d = decideStart([{ id: a, lockMode }]);
      if (d.accept) {
        for (const l of d.deactivate) expect(has(l.deactivate(), 'stopped')).toBe(true);
        expect(has(b.acceptStart(3), 'started')).toBe(true);
        expect(a.status().state).toBe('stopped');
        expect(a.unacknowledged()).toHaveLength(1);
      } else {
        expect(b.refuseStart(d.reason)).toContainEqual(expect.objectContaining({ kind: 'close', code: 'start_refused' }));
        expect(a.status().state).toBe('started');
      }
    }
  });
});
