import { describe, expect, it } from 'vitest';
import { COT, counterCause, isInterrogationQoi } from './cot.ts';

describe('causes of transmission', () => {
  it('interrogation: QOI 20 station, 21-36 groups; the answers carry the QOI as cause', () => {
    expect([19, 20, 36, 37].map(isInterrogationQoi)).toEqual([false, true, true, false]);
    expect(COT.interrogated_station).toBe(20);
  });

  it('counter interrogation: RQT 5 general (37), 1-4 groups (38-41), nothing else', () => {
    expect([0, 1, 4, 5, 6, 63].map(counterCause)).toEqual([undefined, 38, 41, 37, undefined, undefined]);
  });

  it('the negative causes of the standard: 44 unknown type, 45 cause, 46 common address, 47 IOA', () => {
    expect([COT.unknown_type, COT.unknown_cause, COT.unknown_ca, COT.unknown_ioa]).toEqual([44, 45, 46, 47]);
  });
});
