import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InfoObject } from '../protocol/iec104/asdu.ts';
import { COT } from '../protocol/iec104/cot.ts';
import { cp56FromEpochMs } from '../protocol/iec104/cp56.ts';
import type { ElementValue } from '../protocol/iec104/elements.ts';
import { COMMAND_MAX_AGE_MS, SELECT_TIMEOUT_MS, TERMINATION_TIMEOUT_MS } from './commands.ts';
import type { PlcCommand } from './points.ts';
import type { StationAction } from './station.ts';
import { answers, cause, decoded, expectWellFormed, hex, kinds, octets, request, SETTINGS, station, WALL } from './station-testing.ts';

const EXEC = '2d 01 06 03 01 00 e8 03 00 01'; // C_SC_NA_1 ON, IOA 1000, execute
const SELECT = '2d 01 06 03 01 00 e8 03 00 81'; // the same, select
const sc = (ioa: number, value: boolean, select: boolean, over: Parameters<typeof request>[2] = {}) =>
  request(45, [{ ioa, element: { kind: 'sco', value, qualifier: 0, select } }], over);

const hexes = (a: StationAction<string>[]) => a.map((x) => (x.kind === 'to_connection' ? `${x.connection}: ${hex(x.asdu)}` : x.kind));
const commandsOf = (a: StationAction<string>[]): PlcCommand[] => a.flatMap((x) => (x.kind === 'plc_command' ? [x.command] : []));
const seqOf = (a: StationAction<string>[]): number => (commandsOf(a)[0] as PlcCommand).seq;
const timers = (a: StationAction<string>[]) => a.flatMap((x) => (x.kind === 'timer' ? [x.at] : []));

describe('IEC 104 station commands: direct execute and the PLC answers', () => {
  it('an execute becomes a PlcCommand and nothing else; accepted: ACTCON; done: ACTTERM, mirrored octets to the commanding connection', () => {
    const s = station();
    const a = s.receive(100, WALL, 'a', octets(EXEC));
    expect(kinds(a)).toEqual(['plc_command', 'timer']);
    expect(commandsOf(a)).toEqual([
      { seq: 1, type: 45, ioa: 1000, element: { kind: 'sco', value: true, qualifier: 0, select: false }, originator: 3, group: 2 },
    ]);
    expect(timers(a)).toEqual([100 + SETTINGS.confirmTimeout]);
    const acc = s.plcAnswer(200, { seq: 1, kind: 'accepted' });
    expect(hexes(acc)).toEqual(['a: 2d 01 07 03 01 00 e8 03 00 01', 'timer']);
    expect(timers(acc)).toEqual([200 + TERMINATION_TIMEOUT_MS]);
    const done = s.plcAnswer(300, { seq: 1, kind: 'done' });
    expect(hexes(done)).toEqual(['a: 2d 01 0a 03 01 00 e8 03 00 01', 'timer']);
    expect(timers(done)).toEqual([null]);
    expect(s.plcAnswer(400, { seq: 1, kind: 'done' })).toEqual([]); // answered once
  });

  it('refused unknown_ioa: COT 47 P/N; refused otherwise or no answer: ACTCON P/N; done without accepted: ACTCON and ACTTERM', () => {
    const cases: [Parameters<ReturnType<typeof station>['plcAnswer']>[1]['kind'], string | undefined, string[]][] = [
      ['refused', 'unknown_ioa', ['2d 01 6f 03 01 00 e8 03 00 01']],
      ['refused', 'not_now', ['2d 01 47 03 01 00 e8 03 00 01']],
      ['refused', 'out_of_range', ['2d 01 47 03 01 00 e8 03 00 01']],
      ['no_answer', undefined, ['2d 01 47 03 01 00 e8 03 00 01']],
      ['done', undefined, ['2d 01 07 03 01 00 e8 03 00 01', '2d 01 0a 03 01 00 e8 03 00 01']],
    ];
    for (const [kind, reason, want] of cases) {
      const s = station();
      const seq = seqOf(s.receive(0, WALL, 'a', octets(EXEC)));
      const answer = (reason ? { seq, kind, reason } : { seq, kind }) as Parameters<typeof s.plcAnswer>[1];
      expect(answers(s.plcAnswer(1, answer)).map((x) => hex(encodeBack(x.asdu)))).toEqual(want);
    }
  });

  it('after the acceptance, refused or no answer ends the command with ACTTERM P/N', () => {
    const s = station();
    const seq = seqOf(s.receive(0, WALL, 'a', octets(EXEC)));
    s.plcAnswer(1, { seq, kind: 'accepted' });
    expect(hexes(s.plcAnswer(2, { seq, kind: 'no_answer' }))).toEqual(['a: 2d 01 4a 03 01 00 e8 03 00 01', 'timer']);
  });

  it('one execute waits for the PLC acceptance at a time: a second command is refused, accepted ones wait for done side by side', () => {
    const s = station();
    const first = seqOf(s.receive(0, WALL, 'a', octets(EXEC)));
    const second = s.receive(1, WALL, 'b', sc(1001, false, false));
    expect(kinds(second)).toEqual(['to_connection']);
    expect(answers(second)[0]).toMatchObject({ connection: 'b', asdu: { cot: cause(7, true), objects: [{ ioa: 1001 }] } });
    s.plcAnswer(2, { seq: first, kind: 'accepted' });
    const third = s.receive(3, WALL, 'b', sc(1001, false, false));
    expect(commandsOf(third).map((c) => [c.seq, c.ioa])).toEqual([[2, 1001]]);
    expect(hexes(s.plcAnswer(4, { seq: 2, kind: 'accepted' }))).toEqual(['b: 2d 01 07 03 01 00 e9 03 00 00', 'timer']);
    expect(hexes(s.plcAnswer(5, { seq: 2, kind: 'done' }))).toEqual(['b: 2d 01 0a 03 01 00 e9 03 00 00']);
    expect(s.status(5)).toMatchObject({ confirming: 0, terminating: 1 });
  });

  it('no done within the termination timeout: ACTTERM with P/N set; no acceptance within the acceptance limit: ACTCON P/N; late answers are ignored', () => {
    const s = station();
    const seq = seqOf(s.receive(0, WALL, 'a', octets(EXEC)));
    s.plcAnswer(100, { seq, kind: 'accepted' });
    expect(s.tick(100 + TERMINATION_TIMEOUT_MS - 1)).toEqual([]);
    expect(hexes(s.tick(100 + TERMINATION_TIMEOUT_MS))).toEqual(['a: 2d 01 4a 03 01 00 e8 03 00 01', 'timer']);
    expect(s.plcAnswer(100 + TERMINATION_TIMEOUT_MS + 1, { seq, kind: 'done' })).toEqual([]);

    const late = seqOf(s.receive(50_000, WALL, 'a', octets(EXEC)));
    expect(s.tick(50_000 + SETTINGS.confirmTimeout - 1)).toEqual([]);
    expect(hexes(s.tick(50_000 + SETTINGS.confirmTimeout))).toEqual(['a: 2d 01 47 03 01 00 e8 03 00 01', 'timer']);
    expect(s.plcAnswer(60_000, { seq: late, kind: 'accepted' })).toEqual([]);
    expect(commandsOf(s.receive(60_001, WALL, 'a', octets(EXEC)))).toHaveLength(1); // the station is free again
  });
});

describe('IEC 104 station commands: select before operate', () => {
  it('select: ACTCON with S/E set, nothing to the PLC; the execute within the select timeout goes to the PLC', () => {
    const s = station();
    expect(hexes(s.receive(0, WALL, 'a', octets(SELECT)))).toEqual(['a: 2d 01 07 03 01 00 e8 03 00 81']);
    expect(s.status(0).selected).toBe(1);
    const a = s.receive(SELECT_TIMEOUT_MS - 1, WALL, 'a', octets(EXEC));
    expect(commandsOf(a).map((c) => [c.ioa, c.element])).toEqual([[1000, { kind: 'sco', value: true, qualifier: 0, select: false }]]);
    expect(s.status(SELECT_TIMEOUT_MS - 1).selected).toBe(0); // the execute took the selection
  });

  it('an execute after the select timeout, or with another value or type than selected, is refused and nothing reaches the PLC', () => {
    const refusedExecute = (at: number, exec: Uint8Array) => {
      const s = station();
      s.receive(0, WALL, 'a', octets(SELECT));
      const a = s.receive(at, WALL, 'a', exec);
      expect(kinds(a)).toEqual(['to_connection']);
      expect(answers(a)[0]?.asdu.cot).toMatchObject({ cause: 7, negative: true });
      return s;
    };
    refusedExecute(SELECT_TIMEOUT_MS, octets(EXEC));
    refusedExecute(1, sc(1000, false, false)); // OFF after selecting ON
    refusedExecute(1, request(46, [{ ioa: 1000, element: { kind: 'dco', value: 2, qualifier: 0, select: false } }]));
    refusedExecute(1, sc(1000, true, false, { originator: 3, cot: cause(6, false, true) })); // test bit
    // the selection is gone after a refused execute: the next execute is a direct one
    const s = refusedExecute(SELECT_TIMEOUT_MS + 5, octets(EXEC));
    expect(commandsOf(s.receive(SELECT_TIMEOUT_MS + 6, WALL, 'a', octets(EXEC)))).toHaveLength(1);
  });

  it('a selection run out by more than one further timeout is forgotten: the execute is direct', () => {
    const s = station();
    s.receive(0, WALL, 'a', octets(SELECT));
    expect(commandsOf(s.receive(2 * SELECT_TIMEOUT_MS, WALL, 'a', octets(EXEC)))).toHaveLength(1);
  });

  it('a live selection reserves the IOA: another connection can neither select nor execute it; one selection per connection', () => {
    const s = station();
    s.receive(0, WALL, 'a', octets(SELECT));
    expect(answers(s.receive(1, WALL, 'b', octets(SELECT))).map((x) => [x.connection, x.asdu.cot])).toEqual([['b', cause(7, true)]]);
    expect(kinds(s.receive(2, WALL, 'b', octets(EXEC)))).toEqual(['to_connection']);
    expect(answers(s.receive(3, WALL, 'a', sc(1001, true, true))).map((x) => x.asdu.cot)).toEqual([cause(7, true)]); // a holds 1000
    expect(answers(s.receive(4, WALL, 'a', octets(SELECT))).map((x) => x.asdu.cot)).toEqual([cause(7)]); // re-select: fine
    expect(answers(s.receive(SELECT_TIMEOUT_MS + 4, WALL, 'b', octets(SELECT))).map((x) => x.asdu.cot)).toEqual([cause(7)]); // a's ran out
  });

  it('deactivation of a live selection: COT 9; without one (or of another connection): COT 9 P/N', () => {
    const s = station();
    s.receive(0, WALL, 'a', octets(SELECT));
    expect(hexes(s.receive(1, WALL, 'b', octets('2d 01 08 03 01 00 e8 03 00 81')))).toEqual(['b: 2d 01 49 03 01 00 e8 03 00 81']);
    expect(hexes(s.receive(2, WALL, 'a', octets('2d 01 08 03 01 00 e8 03 00 81')))).toEqual(['a: 2d 01 09 03 01 00 e8 03 00 81']);
    expect(hexes(s.receive(3, WALL, 'a', octets('2d 01 08 03 01 00 e8 03 00 81')))).toEqual(['a: 2d 01 49 03 01 00 e8 03 00 81']);
    expect(commandsOf(s.receive(4, WALL, 'b', octets(EXEC)))).toHaveLength(1); // the IOA is free
  });

  it('a connection that closed, or a reset process command, drops the selections', () => {
    const s = station();
    s.receive(0, WALL, 'a', octets(SELECT));
    s.connectionClosed(1, 'a');
    expect(answers(s.receive(2, WALL, 'b', octets(SELECT))).map((x) => x.asdu.cot)).toEqual([cause(7)]);
    expect(answers(s.receive(3, WALL, 'b', octets('69 01 06 03 01 00 00 00 00 01'))).map((x) => x.asdu.cot)).toEqual([cause(7)]);
    expect(s.status(3).selected).toBe(0);
    expect(commandsOf(s.receive(4, WALL, 'a', octets(EXEC)))).toHaveLength(1);
  });

  it('bitstring commands (51) have no S/E bit: always a direct execute', () => {
    const s = station();
    const a = s.receive(0, WALL, 'a', request(51, [{ ioa: 7, element: { kind: 'bsi', value: 0x80000001 } }]));
    expect(commandsOf(a)).toEqual([{ seq: 1, type: 51, ioa: 7, element: { kind: 'bsi', value: 0x80000001 }, originator: 3, group: 2 }]);
  });
});

describe('IEC 104 station commands: refused before the PLC', () => {
  const TIMED = (minute: number) => `3a 01 06 03 01 00 e8 03 00 01 00 00 ${minute.toString(16).padStart(2, '0')} 0a 4c 05 1a`; // C_SC_TA_1 at 10:mm

  it('a time-tagged command within the maximum age carries its time to the PLC; older or from the future by more: ACTCON P/N', () => {
    const s = station();
    const ok = s.receive(0, WALL + COMMAND_MAX_AGE_MS, 'a', octets(TIMED(30)));
    expect(commandsOf(ok)).toMatchObject([{ type: 58, ioa: 1000, at: WALL }]);
    s.plcAnswer(1, { seq: 1, kind: 'done' });
    for (const wallNow of [WALL + COMMAND_MAX_AGE_MS + 1, WALL - COMMAND_MAX_AGE_MS - 1]) {
      const a = s.receive(2, wallNow, 'a', octets(TIMED(30)));
      expect(hexes(a)).toEqual([`a: ${TIMED(30).replace('06 03', '47 03')}`]);
    }
    const invalid = s.receive(3, WALL, 'a', octets(TIMED(30 | 0x80)));
    expect(answers(invalid).map((x) => x.asdu.cot)).toEqual([cause(7, true)]);
    const bad = s.receive(3, WALL, 'a', octets(TIMED(61))); // minute 61: the codec's bad_time
    expect(hexes(bad)).toEqual([`a: ${TIMED(61).replace('06 03', '47 03')}`]);
  });

  it('causes other than 6 and 8: COT 45; more than one object or the test bit: ACTCON P/N; nothing reaches the PLC', () => {
    const s = station();
    for (const c of [3, 5, 7, 10, 44])
      expect(answers(s.receive(0, WALL, 'a', sc(1000, true, false, { cot: cause(c) }))).map((x) => x.asdu.cot)).toEqual([cause(45, true)]);
    const two: InfoObject[] = [1, 2].map((ioa) => ({ ioa, element: { kind: 'sco', value: true, qualifier: 0, select: false } }));
    expect(answers(s.receive(0, WALL, 'a', request(45, two))).map((x) => x.asdu.cot)).toEqual([cause(7, true)]);
    expect(answers(s.receive(0, WALL, 'a', sc(1000, true, false, { cot: cause(6, false, true) }))).map((x) => x.asdu.cot)).toEqual([cause(7, true, true)]);
    expect(s.status(0)).toMatchObject({ confirming: 0, selected: 0 });
  });

  it('while the PLC does not answer commands and selects are refused; a command waiting for its acceptance is refused at once', () => {
    const s = station();
    const seq = seqOf(s.receive(0, WALL, 'a', octets(EXEC)));
    expect(hexes(s.plcState(1, false))).toEqual(['a: 2d 01 47 03 01 00 e8 03 00 01', 'timer']);
    expect(s.plcAnswer(2, { seq, kind: 'no_answer' })).toEqual([]);
    expect(hexes(s.receive(3, WALL, 'a', octets(EXEC)))).toEqual(['a: 2d 01 47 03 01 00 e8 03 00 01']);
    expect(hexes(s.receive(3, WALL, 'a', octets(SELECT)))).toEqual(['a: 2d 01 47 03 01 00 e8 03 00 81']);
    s.plcState(4, true);
    expect(commandsOf(s.receive(5, WALL, 'a', octets(EXEC)))).toHaveLength(1);
  });
});

describe('IEC 104 station commands: properties', () => {
  const arbCommand: fc.Arbitrary<{ type: number; element: ElementValue; time: boolean }> = fc
    .oneof(
      fc
        .record({ value: fc.boolean(), qualifier: fc.integer({ min: 0, max: 31 }) })
        .map((x) => ({ type: 45, element: { kind: 'sco' as const, ...x, select: false } })),
      fc
        .record({ value: fc.integer({ min: 0, max: 3 }), qualifier: fc.integer({ min: 0, max: 31 }) })
        .map((x) => ({ type: 46, element: { kind: 'dco' as const, ...x, select: false } })),
      fc
        .record({ value: fc.integer({ min: 0, max: 3 }), qualifier: fc.integer({ min: 0, max: 31 }) })
        .map((x) => ({ type: 47, element: { kind: 'rco' as const, ...x, select: false } })),
      fc
        .record({ value: fc.integer({ min: -32768, max: 32767 }), ql: fc.integer({ min: 0, max: 127 }) })
        .map((x) => ({ type: 48, element: { kind: 'nva_qos' as const, ...x, select: false } })),
      fc
        .record({ value: fc.integer({ min: -32768, max: 32767 }), ql: fc.integer({ min: 0, max: 127 }) })
        .map((x) => ({ type: 49, element: { kind: 'sva_qos' as const, ...x, select: false } })),
      fc
        .record({ value: fc.float({ noNaN: true }).map(Math.fround), ql: fc.integer({ min: 0, max: 127 }) })
        .map((x) => ({ type: 50, element: { kind: 'r32_qos' as const, ...x, select: false } })),
      fc.integer({ min: 0, max: 0xffffffff }).map((value) => ({ type: 51, element: { kind: 'bsi' as const, value } })),
    )
    .chain((c) => fc.boolean().map((time) => ({ ...c, time })));

  it('every command type, with and without time tag, selected first or not: the PlcCommand carries what was received, the confirmations mirror it', () => {
    fc.assert(
      fc.property(arbCommand, fc.integer({ min: 1, max: 0xffffff }), fc.integer({ min: 0, max: 255 }), fc.boolean(), (c, ioa, originator, selectFirst) => {
        const s = station();
        const type = c.time ? c.type + 13 : c.type;
        const obj = (select: boolean): InfoObject => ({
          ioa,
          element: 'select' in c.element ? { ...c.element, select } : c.element,
          ...(c.time ? { time: cp56FromEpochMs(WALL) } : {}),
        });
        const canSelect = 'select' in c.element;
        if (selectFirst && canSelect) {
          const sel = s.receive(0, WALL, 'a', request(type, [obj(true)], { originator }));
          expect(answers(sel).map((x) => x.asdu)).toEqual([decoded(request(type, [obj(true)], { originator, cot: cause(COT.activation_con) }))]);
        }
        const exec = request(type, [obj(false)], { originator });
        const a = s.receive(1, WALL, 'a', exec);
        expectWellFormed(a, 'a', exec);
        const cmd = commandsOf(a)[0] as PlcCommand;
        expect(cmd).toEqual({ seq: 1, type, ioa, element: obj(false).element, originator, group: SETTINGS.group, ...(c.time ? { at: WALL } : {}) });
        const confirm = answers(s.plcAnswer(2, { seq: 1, kind: 'accepted' }));
        const term = answers(s.plcAnswer(3, { seq: 1, kind: 'done' }));
        expect([...confirm, ...term].map((x) => hex(encodeBack(x.asdu)))).toEqual([
          hex(request(type, [obj(false)], { originator, cot: cause(7) })),
          hex(request(type, [obj(false)], { originator, cot: cause(10) })),
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('request numbers run 1-65535 and wrap without 0', () => {
    const s = station();
    const seen: number[] = [];
    for (let i = 0; i < 65_537; i++) {
      const seq = seqOf(s.receive(i, WALL, 'a', octets(EXEC)));
      seen.push(seq);
      s.plcAnswer(i, { seq, kind: 'done' });
    }
    expect(seen.slice(0, 2)).toEqual([1, 2]);
    expect(seen.slice(65_533)).toEqual([65_534, 65_535, 1, 2]);
    expect(seen).not.toContain(0);
  });
});

/** The decoded answer as octets again (the codec round-trips every decodable ASDU). */
function encodeBack(a: ReturnType<typeof decoded>): Uint8Array {
  return request(a.type, a.objects, { sq: a.sq, cot: a.cot, originator: a.originator, ca: a.ca });
}
