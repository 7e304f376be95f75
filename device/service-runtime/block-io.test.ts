import { describe, expect, it } from 'vitest';
import type { Link } from '../com/link.ts';
import { MQTT_BLOCK } from '../model/blocks/mqtt.ts';
import { BlockIo, statusHead } from './block-io.ts';

/** A link that records every word write the block makes. */
function recording(): { link: Link; writes: [number, number[]][] } {
  const writes: [number, number[]][] = [];
  const link = {
    writeWords: async (_area: string, start: number, words: readonly number[]) => {
      writes.push([start, [...words]]);
    },
  } as unknown as Link;
  return { link, writes };
}

describe('taking a request', () => {
  it('clears the request in the same write as the state and error words: the PLC never sees the request gone with the last job’s state', async () => {
    const { link, writes } = recording();
    const io = new BlockIo(() => link, MQTT_BLOCK, 260, 'mqtt');
    await io.take(statusHead({ state: 'running', error: 'none' }));
    expect(writes).toEqual([[260, [0, 1, 0]]]);
  });

  it('a refused request: request, state error and its code in one write, the counter after it on its own', async () => {
    const { link, writes } = recording();
    const io = new BlockIo(() => link, MQTT_BLOCK, 260, 'mqtt');
    await io.take(statusHead({ state: 'error', error: 'bad_request' }));
    await io.write({ ...statusHead({ state: 'error', error: 'bad_request' }), counter: 1 });
    expect(writes).toEqual([
      [260, [0, 3, 12]],
      [263, [1]],
    ]);
  });

  it('the next request: the request word is written again even though the unit last wrote 0 there', async () => {
    const { link, writes } = recording();
    const io = new BlockIo(() => link, MQTT_BLOCK, 260, 'mqtt');
    await io.take(statusHead({ state: 'running', error: 'none' }));
    await io.take(statusHead({ state: 'running', error: 'none' }));
    expect(writes).toEqual([
      [260, [0, 1, 0]],
      [260, [0]],
    ]);
  });
});
