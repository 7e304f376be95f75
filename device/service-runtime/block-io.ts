// A service's control block on the PLC, read and written by the names of its table
// (device/model/blocks): the whole block in one read, the unit's words written only when they
// differ from what the PLC holds (in runs of neighbouring words), strings and payloads where the
// block points. A PLC that refuses an address (MEWTOCOL error answer) makes a plc_area fault of
// the request; a link that does not answer is the control interface's problem, thrown as it is.

import { PlcError } from '../com/dialog.ts';
import type { Link } from '../com/link.ts';
import type { ControlBlock } from '../model/blocks/convention.ts';
import { type BlockState, roleOffset, SERVICE_ERROR, type ServiceErrorName, STATE, wordsByName } from '../model/blocks/convention.ts';
import { bytesOfWords, checkArea, RequestFault, stringAt, wordsFor, wordsOfBytes } from './plc-text.ts';

export class BlockIo {
  /** what the unit last wrote (or read) per offset, so unchanged words are not written again */
  private held = new Map<number, number>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly link: () => Link,
    readonly block: ControlBlock,
    readonly base: number,
    private readonly user: string,
  ) {}

  async read(): Promise<Record<string, number>> {
    const words = await this.link().readWords('DT', this.base, this.block.length, this.user);
    return wordsByName(this.block, words);
  }

  /**
   * Writes the named words that differ from what the PLC holds as far as the unit knows. Writes run
   * one after another in call order, each compared with what the ones before it left, so a later
   * call's values are what the PLC ends with.
   */
  write(values: Readonly<Record<string, number>>): Promise<void> {
    const next = this.writing.then(() => this.writeNow(values));
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async writeNow(values: Readonly<Record<string, number>>): Promise<void> {
    const changed: [number, number][] = [];
    for (const [name, value] of Object.entries(values)) {
      const w = this.block.words.find((x) => x.name === name);
      if (!w) throw new Error(`${this.block.service} block has no word ${name}`);
      const word = Math.max(0, Math.min(0xffff, Math.trunc(value)));
      if (this.held.get(w.offset) !== word) changed.push([w.offset, word]);
    }
    // the counter last, on its own: when the PLC sees it move, every other word of the result is there
    const counter = roleOffset(this.block, 'counter');
    changed.sort((a, b) => (a[0] === counter ? 1 : b[0] === counter ? -1 : a[0] - b[0]));
    for (let i = 0; i < changed.length; ) {
      let j = i + 1;
      while (j < changed.length && changed[j]![0] === changed[j - 1]![0] + 1 && changed[j]![0] !== counter) j++;
      const run = changed.slice(i, j);
      try {
        await this.link().writeWords(
          'DT',
          this.base + run[0]![0],
          run.map(([, v]) => v),
          this.user,
        );
      } catch (e) {
        for (const [o] of run) this.held.delete(o);
        throw e;
      }
      for (const [o, v] of run) this.held.set(o, v);
      i = j;
    }
  }

  /**
   * Clears the request word (the unit took the request) in one write with the state and error
   * words that follow it: a PLC that sees its request cleared never reads the state of the job before.
   */
  async take(status: { state: number; error: number }): Promise<void> {
    this.held.delete(0);
    await this.write({ request: 0, ...status });
  }

  /** After a failure or a reconnect of the link: write everything again. */
  forget(): void {
    this.held.clear();
  }

  async bytes(what: string, addr: number, len: number): Promise<Uint8Array> {
    if (len === 0) return new Uint8Array(0);
    checkArea(what, addr, len);
    try {
      return bytesOfWords(await this.link().readWords('DT', addr, wordsFor(len), this.user), len);
    } catch (e) {
      throw areaFault(what, addr, len, e);
    }
  }

  string(what: string, addr: number, len: number, max: number): Promise<Uint8Array> {
    return stringAt(what, addr, len, max, (a, n) => this.bytes(what, a, n));
  }

  /** Writes `data` at `addr`, cut to `size` bytes (a last odd byte shares its word with a 0). */
  async writeBytes(what: string, addr: number, data: Uint8Array, size: number): Promise<void> {
    const part = data.subarray(0, size);
    if (part.length === 0) return;
    checkArea(what, addr, part.length);
    try {
      await this.link().writeWords('DT', addr, wordsOfBytes(part), this.user);
    } catch (e) {
      throw areaFault(what, addr, part.length, e);
    }
  }
}

/** The state and error words of a block as the unit holds them. */
export function statusHead(s: { state: BlockState; error: ServiceErrorName }): { state: number; error: number } {
  return { state: STATE[s.state], error: SERVICE_ERROR[s.error] };
}

function areaFault(what: string, addr: number, len: number, e: unknown): unknown {
  if (e instanceof PlcError && e.reason === 'plc_error')
    return new RequestFault('plc_area', `${what}: the PLC refused DT${addr} + ${len} bytes (${e.message})`);
  return e;
}
