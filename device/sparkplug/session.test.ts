import { describe, expect, it } from 'vitest';
import { EdgeSession } from './session.ts';

/** A session connected once, without a primary host, its NBIRTH sent. */
function born(lastBdSeq?: number) {
  const s = new EdgeSession({ primaryHostId: '', lastBdSeq });
  s.connectSent();
  s.connected();
  return s;
}

describe('Sparkplug edge node session: bdSeq', () => {
  it('starts at 0 and the will and NBIRTH of one connection carry the same value (topics-nbirth-bdseq-increment, payloads-ndeath-bdseq, topics-nbirth-bdseq-matching, payloads-nbirth-bdseq-repeat)', () => {
    const s = new EdgeSession({ primaryHostId: '' });
    expect(s.willBdSeq()).toBe(0);
    expect(s.connectSent()).toBe(0);
    expect(s.connected()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 0 }]);
  });

  it('+1 per CONNECT sent, 255 then 0; failed attempts before CONNECT use none up (payloads-nbirth-bdseq-inc, message-flow-edge-node-birth-publish-will-message-payload-bdSeq)', () => {
    const s = new EdgeSession({ primaryHostId: '', lastBdSeq: 253 });
    expect(s.willBdSeq()).toBe(254);
    expect(s.willBdSeq()).toBe(254); // asked again for a retry whose TCP connect failed: the same
    expect(s.connectSent()).toBe(254);
    s.closed();
    expect(s.connectSent()).toBe(255);
    expect(s.connected()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 255 }]);
    s.closed();
    expect(s.willBdSeq()).toBe(0);
    expect(s.connectSent()).toBe(0);
    expect(s.connected()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 0 }]);
  });

  it('continues from the value kept across a restart, so an old will arriving late cannot match the new birth', () => {
    const s = new EdgeSession({ primaryHostId: '', lastBdSeq: 7 });
    expect(s.connectSent()).toBe(8);
  });

  it('a rebirth keeps bdSeq and sets seq to 0 (operational-behavior-data-commands-rebirth-action-1, -2, -3)', () => {
    const s = born(3);
    s.deviceBirth();
    s.data();
    expect(s.rebirth()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 4 }]);
    expect(s.publishing).toBe(false); // no DATA until the DBIRTH with fresh values
    expect(s.data()).toBeNull();
    expect(s.deviceBirth()).toEqual({ type: 'DBIRTH', seq: 1 });
  });

  it('NDEATH before an intentional disconnect carries this connection bdSeq, no seq (operational-behavior-edge-node-intentional-disconnect-ndeath, topics-ndeath-seq)', () => {
    const s = born(10);
    expect(s.stop()).toEqual([{ type: 'NDEATH', bdSeq: 11 }]);
    expect(s.node).toBe('disconnected');
    expect(s.stop()).toEqual([]);
  });
});

describe('Sparkplug edge node session: seq and order', () => {
  it('NBIRTH 0, then DBIRTH 1 and DDATA on, never DATA before the births (payloads-sequence-num-zero-nbirth, payloads-dbirth-seq, payloads-ddata-seq-inc, principles-birth-certificates-order)', () => {
    const s = new EdgeSession({ primaryHostId: '' });
    expect(s.deviceBirth()).toBeNull();
    expect(s.data()).toBeNull();
    s.connectSent();
    expect(s.data()).toBeNull();
    expect(s.connected()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 0 }]);
    expect(s.data()).toBeNull();
    expect(s.deviceBirth()).toEqual({ type: 'DBIRTH', seq: 1 });
    expect(s.data()).toEqual({ type: 'DDATA', seq: 2 });
    expect(s.data()).toEqual({ type: 'DDATA', seq: 3 });
  });

  it('wraps 255 to 0 across DBIRTH, DDATA and DDEATH (payloads-sequence-num-incrementing, topics-ddata-seq-num, payloads-ddeath-seq-number)', () => {
    const s = born();
    const seqs = [s.deviceBirth()!.seq];
    for (let i = 0; i < 300; i++) seqs.push(s.data()!.seq);
    seqs.push(s.deviceDeath()!.seq);
    seqs.push(s.deviceBirth()!.seq);
    expect(seqs.slice(253, 258)).toEqual([254, 255, 0, 1, 2]);
    seqs.forEach((q, i) => expect(q).toBe((i + 1) % 256));
  });

  it('after DDEATH no DDATA until a DBIRTH (operational-behavior-device-ddeath)', () => {
    const s = born();
    expect(s.deviceDeath()).toBeNull(); // not born: nothing to end
    s.deviceBirth();
    expect(s.deviceDeath()).toEqual({ type: 'DDEATH', seq: 2 });
    expect(s.data()).toBeNull();
    expect(s.deviceDeath()).toBeNull();
    expect(s.deviceBirth()).toEqual({ type: 'DBIRTH', seq: 3 });
    expect(s.data()).toEqual({ type: 'DDATA', seq: 4 });
  });

  it('a lost connection ends the births; the next connection starts with NBIRTH seq 0 and bdSeq + 1', () => {
    const s = born();
    s.deviceBirth();
    s.closed();
    expect(s.data()).toBeNull();
    expect(s.rebirth()).toEqual([]);
    expect(s.connectSent()).toBe(1);
    expect(s.connected()).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 1 }]);
  });
});

describe('Sparkplug edge node session: primary host', () => {
  const host = () => {
    const s = new EdgeSession({ primaryHostId: 'scada' });
    s.connectSent();
    return s;
  };

  it('no births until the host is online (message-flow-edge-node-birth-publish-phid-wait, operational-behavior-edge-node-birth-sequence-wait, message-flow-edge-node-birth-publish-phid-wait-online)', () => {
    const s = host();
    expect(s.connected()).toEqual([]);
    expect(s.node).toBe('awaiting_host');
    expect(s.rebirth()).toEqual([]);
    expect(s.deviceBirth()).toBeNull();
    expect(s.hostState({ online: false, timestamp: 5 })).toEqual({ counted: true, publish: [], disconnect: false });
    expect(s.hostState({ online: true, timestamp: 5 })).toEqual({ counted: true, publish: [{ type: 'NBIRTH', seq: 0, bdSeq: 0 }], disconnect: false });
    expect(s.hostOnline).toBe(true);
  });

  it('offline with an equal or newer timestamp: NDEATH, disconnect (message-flow-edge-node-birth-publish-phid-offline, operational-behavior-edge-node-termination-host-offline)', () => {
    const s = host();
    s.connected();
    s.hostState({ online: true, timestamp: 100 });
    s.deviceBirth();
    expect(s.hostState({ online: false, timestamp: 100 })).toEqual({ counted: true, publish: [{ type: 'NDEATH', bdSeq: 0 }], disconnect: true });
    expect(s.node).toBe('disconnected');
    expect(s.data()).toBeNull();
    // the reconnect: a new CONNECT, bdSeq + 1, waiting for the host again (operational-behavior-edge-node-termination-host-offline-reconnect)
    expect(s.connectSent()).toBe(1);
    expect(s.connected()).toEqual([]);
    expect(s.hostState({ online: true, timestamp: 200 }).publish).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 1 }]);
  });

  it('an older STATE is ignored, online or offline (message-flow-edge-node-birth-publish-phid-wait-timestamp, operational-behavior-edge-node-termination-host-offline-timestamp)', () => {
    const s = host();
    s.connected();
    s.hostState({ online: true, timestamp: 100 });
    expect(s.hostState({ online: false, timestamp: 99 })).toEqual({ counted: false, publish: [], disconnect: false });
    expect(s.node).toBe('birthed');
    s.closed();
    s.connectSent();
    s.connected();
    expect(s.hostState({ online: true, timestamp: 99 })).toEqual({ counted: false, publish: [], disconnect: false });
    expect(s.node).toBe('awaiting_host');
    // the retained birth replayed after our reconnect has the same timestamp: it counts
    expect(s.hostState({ online: true, timestamp: 100 }).publish).toEqual([{ type: 'NBIRTH', seq: 0, bdSeq: 1 }]);
  });

  it('an intentional stop while waiting for the host still sends NDEATH', () => {
    const s = host();
    s.connected();
    expect(s.stop()).toEqual([{ type: 'NDEATH', bdSeq: 0 }]);
  });
});
