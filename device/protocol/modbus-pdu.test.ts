import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeModbusRequest,
  encodeModbusException,
  encodeModbusRequest,
  isModbusException,
  MODBUS_LIMITS,
  type ModbusRequest,
  type ModbusResponse,
  modbusExceptionInfo,
} from './modbus-pdu.ts';
import { planModbusRead, planModbusWrite } from './modbus-plan.ts';
import { decodeModbusResponse, encodeModbusResponse, modbusResponseShape, modbusWriteEcho } from './modbus-response.ts';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
const bytes = (s: string) => Uint8Array.from(s.split(' ').map((x) => parseInt(x, 16)));

const span = (max: number) =>
  fc.integer({ min: 1, max }).chain((q) => fc.record({ address: fc.integer({ min: 0, max: 65536 - q }), quantity: fc.constant(q) }));
const modbusRequest: fc.Arbitrary<ModbusRequest> = fc.oneof(
  fc.constantFrom(1 as const, 2 as const).chain((f) => span(2000).map((s) => ({ fc: f, ...s }))),
  fc.constantFrom(3 as const, 4 as const).chain((f) => span(125).map((s) => ({ fc: f, ...s }))),
  fc.record({ address: fc.integer({ min: 0, max: 65535 }), value: fc.boolean() }).map((x) => ({ fc: 5 as const, ...x })),
  fc.record({ address: fc.integer({ min: 0, max: 65535 }), value: fc.integer({ min: 0, max: 65535 }) }).map((x) => ({ fc: 6 as const, ...x })),
  fc
    .array(fc.boolean(), { minLength: 1, maxLength: 1968 })
    .chain((values) => fc.integer({ min: 0, max: 65536 - values.length }).map((address) => ({ fc: 15 as const, address, values }))),
  fc
    .array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 123 })
    .chain((values) => fc.integer({ min: 0, max: 65536 - values.length }).map((address) => ({ fc: 16 as const, address, values }))),
);

function responseFor(req: ModbusRequest): fc.Arbitrary<ModbusResponse> {
  const exception = fc.integer({ min: 1, max: 11 }).map((exception) => ({ fc: req.fc, exception }));
  switch (req.fc) {
    case 1:
    case 2: {
      const f = req.fc;
      return fc.oneof(
        fc.array(fc.boolean(), { minLength: req.quantity, maxLength: req.quantity }).map((bits): ModbusResponse => ({ fc: f, bits })),
        exception,
      );
    }
    case 3:
    case 4: {
      const f = req.fc;
      return fc.oneof(
        fc
          .array(fc.integer({ min: 0, max: 65535 }), { minLength: req.quantity, maxLength: req.quantity })
          .map((registers): ModbusResponse => ({ fc: f, registers })),
        exception,
      );
    }
    default:
      return fc.oneof(fc.constant(modbusWriteEcho(req) as ModbusResponse), exception);
  }
}

describe('Modbus PDUs', () => {
  it('encodes the textbook requests', () => {
    expect(hex(encodeModbusRequest({ fc: 3, address: 0, quantity: 10 }))).toBe('03 00 00 00 0a');
    expect(hex(encodeModbusRequest({ fc: 5, address: 0xac, value: true }))).toBe('05 00 ac ff 00');
    expect(hex(encodeModbusRequest({ fc: 6, address: 1, value: 3 }))).toBe('06 00 01 00 03');
    // Modbus spec example: write 10 coils from 19: CD 01
    expect(hex(encodeModbusRequest({ fc: 15, address: 19, values: [true, false, true, true, false, false, true, true, true, false] }))).toBe(
      '0f 00 13 00 0a 02 cd 01',
    );
    expect(hex(encodeModbusRequest({ fc: 16, address: 1, values: [0x000a, 0x0102] }))).toBe('10 00 01 00 02 04 00 0a 01 02');
  });

  it('decodes responses against the request', () => {
    expect(decodeModbusResponse(bytes('01 03 cd 6b 05'), { fc: 1, address: 19, quantity: 19 })).toEqual({
      ok: true,
      value: { fc: 1, bits: [true, false, true, true, false, false, true, true, true, true, false, true, false, true, true, false, true, false, true] },
    });
    expect(decodeModbusResponse(bytes('03 04 02 2b 00 00'), { fc: 3, address: 0, quantity: 2 })).toEqual({
      ok: true,
      value: { fc: 3, registers: [0x022b, 0] },
    });
    expect(decodeModbusResponse(bytes('03 04 02 2b 00 00'), { fc: 3, address: 0, quantity: 3 })).toMatchObject({ ok: false, error: { code: 'mismatch' } });
    expect(decodeModbusResponse(bytes('04 02 00 01'), { fc: 3, address: 0, quantity: 1 })).toMatchObject({ ok: false, error: { code: 'mismatch' } });
    expect(decodeModbusResponse(bytes('06 00 01 00 04'), { fc: 6, address: 1, value: 3 })).toMatchObject({ ok: false, error: { code: 'mismatch' } });
  });

  it('exception responses: fc | 0x80 and the code (1-4, 11 gateway target failed)', () => {
    expect(hex(encodeModbusException(3, 2))).toBe('83 02');
    expect(hex(encodeModbusResponse({ fc: 16, exception: 11 }))).toBe('90 0b');
    const r = decodeModbusResponse(bytes('83 0b'), { fc: 3, address: 0, quantity: 1 });
    expect(r).toEqual({ ok: true, value: { fc: 3, exception: 11 } });
    expect(r.ok && isModbusException(r.value)).toBe(true);
    expect(modbusExceptionInfo(11).key).toBe('gateway_target_failed');
    expect(modbusExceptionInfo(4).text).toBe('Server device failure');
  });

  it('server side: malformed requests give the exception to answer', () => {
    const exc = (s: string) => {
      const r = decodeModbusRequest(bytes(s));
      return r.ok ? 'ok' : r.error.exception;
    };
    expect(exc('03 00 00 00 7d')).toBe('ok'); // 125
    expect(exc('03 00 00 00 7e')).toBe(3); // 126 registers
    expect(exc('03 00 00 00 00')).toBe(3);
    expect(exc('01 00 00 07 d1')).toBe(3); // 2001 bits
    expect(exc('03 ff ff 00 02')).toBe(2); // beyond 65535
    expect(exc('05 00 01 12 34')).toBe(3); // coil value neither FF00 nor 0000
    expect(exc(`10 00 00 00 7c f8${' 00'.repeat(248)}`)).toBe(3); // 124 registers
    expect(exc('10 00 00 00 02 03 00 01 00')).toBe(3); // byte count mismatch
    expect(exc(`0f 00 00 07 b1 f7${' 00'.repeat(247)}`)).toBe(3); // 1969 coils
    expect(exc('08 00 00 00 00')).toBe(1); // unsupported function
    expect(exc('2b 0e 01 00')).toBe(1);
    expect(decodeModbusRequest(new Uint8Array(0))).toMatchObject({ ok: false, error: { code: 'bad_length' } }); // empty: nothing to answer
    // 0 and 0x80-0xFF are not requests: exception 01 like an unknown function (issue 15: these
    // codes used to get no exception and crashed the servers that fell back to encoding one)
    expect(exc('83 00')).toBe(1);
    expect(exc('80')).toBe(1);
    expect(exc('00 00 00 00 01')).toBe(1);
    expect(exc('ff 00 00')).toBe(1);
  });

  it('encodeModbusException never throws: every function byte 0-255 and any code', () => {
    for (let f = 0; f <= 255; f++) {
      const pdu = encodeModbusException(f, 1);
      expect([...pdu]).toEqual([f < 0x80 && f > 0 ? f | 0x80 : (f & 0x7f) | 0x80, 1]);
    }
    expect(hex(encodeModbusException(0x80, 1))).toBe('80 01');
    expect(hex(encodeModbusException(0xc3, 1))).toBe('c3 01');
    expect(hex(encodeModbusException(0, 1))).toBe('80 01');
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double()), fc.oneof(fc.integer(), fc.double()), (f, code) => {
        const pdu = encodeModbusException(f, code);
        expect(pdu.length).toBe(2);
        expect(pdu[0]! & 0x80).toBe(0x80);
        expect(pdu[1]).toBe(Number.isInteger(code) && code >= 1 && code <= 255 ? code : 4);
      }),
      { numRuns: 500 },
    );
  });

  it('limits: FC3/4 125, FC1/2 2000, FC16 123, FC15 1968', () => {
    expect(MODBUS_LIMITS).toEqual({ 1: 2000, 2: 2000, 3: 125, 4: 125, 15: 1968, 16: 123 });
    expect(() => encodeModbusRequest({ fc: 3, address: 0, quantity: 126 })).toThrow(RangeError);
    expect(() => encodeModbusRequest({ fc: 16, address: 0, values: new Array(124).fill(0) })).toThrow(RangeError);
    expect(() => encodeModbusRequest({ fc: 4, address: 65535, quantity: 2 })).toThrow(RangeError);
    expect(() => encodeModbusRequest({ fc: 6, address: 0, value: 65536 })).toThrow(RangeError);
  });

  it('property: decode(encode(request)) is the identity (server side)', () => {
    fc.assert(
      fc.property(modbusRequest, (req) => {
        expect(decodeModbusRequest(encodeModbusRequest(req))).toEqual({ ok: true, value: req });
      }),
      { numRuns: 500 },
    );
  });

  it('property: decode(encode(response), request) is the identity (client side), exceptions included', () => {
    fc.assert(
      fc.property(
        modbusRequest.chain((req) => fc.tuple(fc.constant(req), responseFor(req))),
        ([req, res]) => {
          expect(decodeModbusResponse(encodeModbusResponse(res), req)).toEqual({ ok: true, value: res });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: random PDUs never throw; accepted requests re-encode to the same bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 260 }), modbusRequest, (pdu, req) => {
        const r = decodeModbusRequest(pdu);
        if (r.ok) expect(hex(encodeModbusRequest(r.value))).toBe(hex(pdu));
        decodeModbusResponse(pdu);
        decodeModbusResponse(pdu, req);
      }),
      { numRuns: 500 },
    );
  });
});

describe('Modbus response shapes', () => {
  it('property: a normal response answers another request exactly when the two have the same shape', () => {
    // a read's response names no address: function and byte count are all that tell reads apart
    fc.assert(
      fc.property(
        modbusRequest.chain((req) =>
          fc.tuple(
            fc.constant(req),
            responseFor(req).filter((r) => !isModbusException(r)),
          ),
        ),
        modbusRequest,
        ([a, res], b) => {
          expect(decodeModbusResponse(encodeModbusResponse(res), b).ok).toBe(modbusResponseShape(a) === modbusResponseShape(b));
        },
      ),
      { numRuns: 1000 },
    );
    expect(modbusResponseShape({ fc: 3, address: 100, quantity: 1 })).toBe('3:2');
    expect(modbusResponseShape({ fc: 1, address: 0, quantity: 9 })).toBe('1:2');
    expect(modbusResponseShape({ fc: 6, address: 5, value: 7 })).toBe('6:5:7');
  });
});

describe('Modbus split planning', () => {
  it('reads and writes split at the function limits', () => {
    expect(planModbusRead(3, 0, 300)).toEqual([
      { fc: 3, address: 0, quantity: 125 },
      { fc: 3, address: 125, quantity: 125 },
      { fc: 3, address: 250, quantity: 50 },
    ]);
    expect(planModbusRead(1, 10, 4000)).toHaveLength(2);
    expect(planModbusWrite(16, 0, new Array(124).fill(1))).toHaveLength(2);
    expect(planModbusWrite(15, 0, new Array(1969).fill(true))).toHaveLength(2);
    expect(() => planModbusRead(3, 65535, 2)).toThrow(RangeError);
  });

  it('property: the plan covers exactly the range and every request encodes', () => {
    const fcs = fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const);
    fc.assert(
      fc.property(fcs, fc.integer({ min: 1, max: 65536 }), fc.nat(), (f, q, a) => {
        const address = a % (65537 - q);
        const plan = planModbusRead(f, address, q);
        expect(plan.length).toBe(Math.ceil(q / MODBUS_LIMITS[f]));
        let at = address;
        for (const r of plan) {
          if (!('quantity' in r)) throw new Error('not a read');
          expect(r.address).toBe(at);
          at += r.quantity;
          encodeModbusRequest(r);
        }
        expect(at).toBe(address + q);
      }),
    );
  });
});
