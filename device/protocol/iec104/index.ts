// device/protocol/iec104: the pure IEC 60870-5-104 codec (architecture.md "New rooms"): no I/O, no
// timers, no Node APIs. Decoders return Result and never throw or read past their input; encoders
// throw RangeError on values a frame cannot carry.
//
//   apci       I/S/U frames, 15-bit N(S)/N(R) arithmetic        framer    TCP stream -> APDUs
//   asdu       header, VSQ, COT, CA, IOA, information objects   elements  information element codecs
//   types      the type identification table (one home)         cot       causes of transmission
//   cp56       CP56Time2a                                       addresses CA/IOA text, structured or not

export * from './addresses.ts';
export * from './apci.ts';
export * from './asdu.ts';
export * from './cot.ts';
export * from './cp56.ts';
export * from './elements.ts';
export * from './framer.ts';
export * from './types.ts';
