import { describe, expect, it } from 'vitest';
import { acceptedTimestamp, MAX_STATE_BYTES, parseState, stateCounts } from './state.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('primary host STATE', () => {
  it('JSON {online, timestamp}, unknown keys ignored (host-topic-phid-birth-payload, host-topic-phid-death-payload)', () => {
    expect(parseState(bytes('{"online":true,"timestamp":1700000000000}'))).toEqual({ online: true, timestamp: 1700000000000 });
    expect(parseState('{"online":false,"timestamp":5,"bdSeq":3}')).toEqual({ online: false, timestamp: 5 });
    expect(parseState('{"online":true}')).toEqual({ online: true });
  });

  it('online must be a boolean: anything else is no state (message-flow-edge-node-birth-publish-phid-wait-online)', () => {
    for (const bad of [
      '{"online":"true","timestamp":1}',
      '{"online":1}',
      '{}',
      'null',
      '[true]',
      'ONLINE',
      '{"online":true,"timestamp":-1}',
      '{"online":true,"timestamp":1.5}',
      '{"online":true,"timestamp":"1"}',
      '\u00ff{',
    ])
      expect(parseState(bad), bad).toBeNull();
    expect(parseState(`{"online":true,"pad":"${'x'.repeat(MAX_STATE_BYTES)}"}`)).toBeNull();
  });

  it('legacy ONLINE/OFFLINE of Sparkplug 2.2 hosts only when asked', () => {
    expect(parseState('ONLINE', true)).toEqual({ online: true });
    expect(parseState('OFFLINE', true)).toEqual({ online: false });
    expect(parseState('ONLINE')).toBeNull();
  });

  it('equal or newer timestamps count, older ones are ignored (message-flow-edge-node-birth-publish-phid-wait-timestamp, operational-behavior-edge-node-termination-host-offline-timestamp)', () => {
    expect(stateCounts(undefined, { online: true, timestamp: 10 })).toBe(true);
    expect(stateCounts(10, { online: false, timestamp: 10 })).toBe(true);
    expect(stateCounts(10, { online: true, timestamp: 11 })).toBe(true);
    expect(stateCounts(10, { online: false, timestamp: 9 })).toBe(false);
    expect(stateCounts(10, { online: true })).toBe(true);
    expect(acceptedTimestamp(undefined, { online: true, timestamp: 10 })).toBe(10);
    expect(acceptedTimestamp(10, { online: true })).toBe(10);
    expect(acceptedTimestamp(10, { online: false, timestamp: 12 })).toBe(12);
  });
});
