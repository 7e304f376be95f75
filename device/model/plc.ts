// PLC facts the configuration needs (spec §9 ranges; `../shared/reference/mewtocol.md`).

// spec §3: Com port ids 0, 3, 1, 4, 5 for COM1 RS232, COM2 RS485/RS232, COM3 USB, INTERNAL, COM4 Ethernet
export const INTERFACE_IDS = [0, 3, 1, 4, 5] as const;
export type InterfaceId = (typeof INTERFACE_IDS)[number];
export const INTERFACE_NAMES: Record<InterfaceId, string> = { 0: 'COM1', 3: 'COM2', 1: 'COM3', 4: 'INTERNAL', 5: 'COM4' };
export const INTERNAL_ID = 4;
/** the INTERNAL memory's user area: holding registers 0-32767 (mewtocol.md §9) */
export const INTERNAL_USER_WORDS = 32768;
/** spec §9: COM4 address offset -255..255; this value switches it off */
export const ADDR_OFFSET_DISABLED = -32768;
export const ETHERNET_ID = 5;
export const RS485_CAPABLE_ID = 3;

export const PROTOCOLS = ['MEWTOCOL', 'MEWTOCOL7', 'MODBUS'] as const;
// spec §3: baud rates 230400 down to 1200
export const BAUD_RATES = [230400, 115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200] as const;
export const PARITIES = ['none', 'odd', 'even'] as const;
// spec §3: mode RS232 (1) or RS485 (5)
export const SERIAL_MODES = [1, 5] as const;
// interface service: 0 = the unit speaks the configured protocol, 1 = transparent pass-through (mewtocol.md §9)
export const INTERFACE_SERVICES = [0, 1] as const;
export const TRANSPARENT = 1;

// spec §3: PLC data areas for port restrictions; spec §9 word limits
export const WORD_AREAS = ['DT', 'FL', 'LD', 'WR', 'WL', 'WY', 'WX'] as const;
export type WordArea = (typeof WORD_AREAS)[number];
export const AREA_MAX: Record<WordArea, number> = {
  DT: 999424, // spec §9: DT address 0-999424
  LD: 16384,
  FL: 32765,
  WR: 2048,
  WL: 1024,
  WY: 512,
  WX: 512,
};
export const DT_MAX = AREA_MAX.DT;
export const MODBUS_ADDRESS_MAX = 65535; // spec §9
export const STATION_MAX = 99; // spec §9
export const ACCESS_RIGHTS = ['RO', 'R/W', 'BLK'] as const;
