// The hashing queue on its own (security.md AUTH-6, AUTH-8, AUTH-9; issue 34 item 2): the first
// line (addresses that signed in before) has a slot of its own, one waiting place per address, a
// full line drops its oldest check, and the budget the second line waits for.
import { describe, expect, it } from 'vitest';
import { HASH_BURST_MS, HASH_DEBT_MS, HASH_SHARE, HashQueueFull, hashBudgetMs, hashLoad, inHashSlot, LOGIN_QUEUE } from './hash-queue.ts';

/** a hash that ends when told */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { open, fn: () => done };
}
const newcomer = (source: string) => ({ source, signedInBefore: false });
const owner = (source: string) => ({ source, signedInBefore: true });

describe('hashing queue', () => {
  it('an address that signed in before does not wait for the newcomers: it has a slot of its own', async () => {
    const busy = gate();
    const order: string[] = [];
    const running = inHashSlot(busy.fn, newcomer('10.0.0.0'));
    const checks = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((a) => inHashSlot(async () => void order.push(a), newcomer(a)));
    expect(hashLoad()).toEqual({ active: 1, waiting: 3 });
    await inHashSlot(async () => void order.push('owner'), owner('10.0.0.9'));
    expect(order).toEqual(['owner']);
    busy.open();
    await Promise.all([running, ...checks]);
    expect(order).toEqual(['owner', '10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(hashLoad()).toEqual({ active: 0, waiting: 0 });
  });

  it('owners wait only for each other; calls without a ticket share their line', async () => {
    const busy = gate();
    const order: string[] = [];
    const running = inHashSlot(busy.fn);
    const own = inHashSlot(async () => void order.push('owner'), owner('10.0.0.8'));
    await inHashSlot(async () => void order.push('newcomer'), newcomer('10.0.0.7'));
    expect(order).toEqual(['newcomer']);
    busy.open();
    await Promise.all([running, own]);
    expect(order).toEqual(['newcomer', 'owner']);
  });

  it('one waiting place per address: a second check while one waits is refused at once', async () => {
    const busy = gate();
    const running = inHashSlot(busy.fn, newcomer('10.0.1.0'));
    const waiting = inHashSlot(async () => 'first', newcomer('10.0.1.1'));
    await expect(inHashSlot(async () => 'second', newcomer('10.0.1.1'))).rejects.toBeInstanceOf(HashQueueFull);
    busy.open();
    await running;
    expect(await waiting).toBe('first');
  });

  it('a full line refuses its oldest check and takes the new one', async () => {
    const busy = gate();
    const running = inHashSlot(busy.fn, newcomer('10.0.2.200'));
    const ran: string[] = [];
    const check = (a: string) =>
      inHashSlot(async () => void ran.push(a), newcomer(a)).then(
        () => 'ran',
        (e: unknown) => (e instanceof HashQueueFull ? 'refused' : 'other'),
      );
    const early = Array.from({ length: LOGIN_QUEUE }, (_, i) => check(`10.0.2.${i}`));
    const late = check('10.0.2.50');
    expect(await early[0]).toBe('refused');
    busy.open();
    await running;
    expect(await Promise.all(early.slice(1))).toEqual(Array(LOGIN_QUEUE - 1).fill('ran'));
    expect(await late).toBe('ran');
    expect(ran.at(-1)).toBe('10.0.2.50');
  });

  it('a sustained run of hashes empties the budget: a newcomer then waits for its share, an owner does not', async () => {
    // one hash long enough to empty the bucket: it refills by HASH_SHARE * d while the hash runs
    const d = 2 * HASH_BURST_MS + 200;
    let ended = 0;
    await inHashSlot(async () => {
      await new Promise((r) => setTimeout(r, d));
      ended = performance.now();
    }, newcomer('10.0.3.1'));
    // queued first, the newcomer still waits for the bucket; the owner queued after it runs at once
    const next = inHashSlot(async () => performance.now(), newcomer('10.0.3.2'));
    const ownerStart = await inHashSlot(async () => performance.now(), owner('10.0.3.9'));
    const nextStart = await next;
    expect(ownerStart).toBeLessThan(nextStart);
    // the bucket held at most HASH_BURST_MS - (1 - HASH_SHARE) * d after the hash: it refills at HASH_SHARE
    const deficit = (1 - HASH_SHARE) * d - HASH_BURST_MS;
    expect(nextStart - ended).toBeGreaterThanOrEqual(deficit / HASH_SHARE - 2);
  });

  it("the first line overdraws the bucket by at most HASH_DEBT_MS: after an owner's long hashing a newcomer waits for that much, not for all of it", async () => {
    // an owner's hash long enough to overdraw the bucket by more than the limit: it ends at
    // HASH_BURST_MS + HASH_SHARE * d - d without the limit
    const d = (HASH_BURST_MS + HASH_DEBT_MS) / (1 - HASH_SHARE) + 400;
    await inHashSlot(async () => {
      await new Promise((r) => setTimeout(r, d));
    }, owner('10.0.4.9'));
    const after = hashBudgetMs();
    expect(HASH_BURST_MS + HASH_SHARE * d - d).toBeLessThan(-HASH_DEBT_MS);
    expect(after).toBeGreaterThanOrEqual(-HASH_DEBT_MS);
    expect(after).toBeLessThan(0);
    // and the newcomer is let in once the bucket is no longer empty
    await inHashSlot(async () => undefined, newcomer('10.0.4.1'));
    expect(hashLoad()).toMatchObject({ active: 0, waiting: 0 });
  });
});
