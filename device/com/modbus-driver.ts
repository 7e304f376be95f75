// Modbus driver (RTU on serial lines, MBAP on TCP) through the Panasonic map of mewtocol.md §8:
// DT = holding registers (FC3/6/16), WL and LD = input registers (FC4, read only), Y and R =
// coils (FC1/5/15), X = discrete inputs (FC2). WY, WR and WX words travel as their 16 coils or
// inputs each. FL and L have no Modbus address and are refused before anything is sent.
// The families' tables share their base addresses and differ only in length, so the widest (FP7)
// is used: a smaller PLC answers exception 02 past its end, exactly as it would to any client.
import {
  type BitArea,
  type ModbusRequest,
  type ModbusResponse,
  type PlcRef,
  planModbusRead,
  planModbusWrite,
  plcToModbus,
  type WordArea,
} from '../protocol/index.ts';
import { PlcError } from './dialog.ts';
import { type PlcDriver, type PlcIdentity, type Run, recordingRun, unsupported } from './driver.ts';
import { modbusDialog } from './modbus-dialog.ts';

const WORD_BITS: Partial<Record<WordArea, BitArea>> = { WY: 'Y', WR: 'R', WX: 'X' };

function addressOf(ref: PlcRef, count: number): number {
  const at = plcToModbus(ref);
  const area = ref.area;
  if (!at) throw unsupported(`${area} ${'address' in ref ? ref.address : `${ref.word}.${ref.bit}`} has no Modbus address`);
  if (at.address + count - 1 > 0xffff) throw unsupported(`${area} range runs past the Modbus address space`);
  return at.address;
}

export class ModbusDriver implements PlcDriver {
  private transaction = 0;

  constructor(
    private readonly unit: number,
    private readonly framing: 'rtu' | 'tcp',
  ) {}

  private ask(run: Run, req: ModbusRequest, idempotent: boolean): Promise<ModbusResponse> {
    return run(() => modbusDialog(this.unit, req, this.framing === 'rtu' ? { kind: 'rtu' } : { kind: 'tcp', transaction: ++this.transaction }), idempotent);
  }

  async readWords(run: Run, area: WordArea, start: number, count: number): Promise<number[]> {
    const bitArea = WORD_BITS[area];
    if (bitArea) {
      const bits = await this.readBits(run, bitArea, start * 16, count * 16);
      return Array.from({ length: count }, (_, w) => bits.slice(w * 16, w * 16 + 16).reduce((acc, on, b) => acc | (on ? 1 << b : 0), 0));
    }
    if (area !== 'DT' && area !== 'WL' && area !== 'LD') throw unsupported(`${area} has no Modbus address`);
    const address = addressOf({ area, address: start }, count);
    const out: number[] = [];
    for (const r of planModbusRead(area === 'DT' ? 3 : 4, address, count)) {
      const res = await this.ask(run, r, true);
      if ('registers' in res) out.push(...res.registers);
    }
    return out;
  }

  async writeWords(run: Run, area: WordArea, start: number, words: readonly number[]): Promise<void> {
    const bitArea = WORD_BITS[area];
    if (bitArea)
      return this.writeBits(
        run,
        bitArea,
        start * 16,
        words.flatMap((w) => Array.from({ length: 16 }, (_, b) => ((w >> b) & 1) === 1)),
      );
    if (area !== 'DT') throw unsupported(`${area} cannot be written over Modbus`);
    const address = addressOf({ area, address: start }, words.length);
    const reqs: ModbusRequest[] = words.length === 1 ? [{ fc: 6, address, value: words[0]! }] : planModbusWrite(16, address, words);
    for (const r of reqs) await this.ask(run, r, false);
  }

  async readBits(run: Run, area: BitArea, index: number, count: number): Promise<boolean[]> {
    if (area === 'L') throw unsupported('L has no Modbus address');
    const address = addressOf({ area, word: index >> 4, bit: index & 15 }, count);
    const out: boolean[] = [];
    for (const r of planModbusRead(area === 'X' ? 2 : 1, address, count)) {
      const res = await this.ask(run, r, true);
      if ('bits' in res) out.push(...res.bits);
    }
    return out;
  }

  async writeBits(run: Run, area: BitArea, index: number, values: readonly boolean[]): Promise<void> {
    if (area === 'X' || area === 'L') throw unsupported(`${area} cannot be written over Modbus`);
    const address = addressOf({ area, word: index >> 4, bit: index & 15 }, values.length);
    const reqs: ModbusRequest[] = values.length === 1 ? [{ fc: 5, address, value: values[0]! }] : planModbusWrite(15, address, values);
    for (const r of reqs) await this.ask(run, r, false);
  }

  async probe(run: Run): Promise<void> {
    await this.ask(run, { fc: 3, address: 0, quantity: 1 }, true).catch((e: unknown) => {
      if (e instanceof PlcError && e.reason === 'plc_error') return; // an exception is an answer too
      throw e;
    });
  }

  async identify(outer: Run): Promise<PlcIdentity> {
    const rec = recordingRun(outer);
    try {
      await this.probe(rec.run);
    } catch (e) {
      if (e instanceof PlcError) throw new PlcError(e.reason, e.message, e.code, e.raw || rec.raw());
      throw e;
    }
    return {
      cpu: { name: 'unknown', family: 'unknown' },
      raw: rec.raw(),
      note: 'The PLC answers Modbus; Modbus has no status read, so the CPU type cannot be read over it',
    };
  }
}
