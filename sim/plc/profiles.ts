// The CPU models a virtual PLC can be, with what their status commands answer and how large their
// memory areas are. Status codes: mewtocol.md §4 (RT classic table, EXRT machine types, FP7 via
// MEWTOCOL7 STRD). Area sizes: the Modbus address tables of mewtocol.md §8 where they give them,
// spec §9 for the FP7 limits; where neither says (FP0, FP2), the model's smallest documented
// sizes are used and marked as such.

export const CPU_MODELS = ['FP7', 'FP0', 'FP0R', 'FP-X', 'FP-XH', 'FP2'] as const;
export type CpuModel = (typeof CPU_MODELS)[number];

/** Number of words of each area (addresses 0 … size-1). */
export interface AreaSizes {
  DT: number;
  FL: number;
  LD: number;
  WR: number;
  WL: number;
  WY: number;
  WX: number;
}

export interface CpuProfile {
  model: CpuModel;
  /** RT reply: CPU type code (2 hex chars); FP7 answers all zero (mewtocol.md §4.1) */
  rtCode: string;
  /** RT reply: version as two digits, e.g. '25' = 2.5 */
  version: string;
  /** RT reply: program capacity in K steps, 2 decimal digits */
  capacityK: string;
  /** EXRT machine type (mewtocol.md §4.4); undefined = EXRT answered with error !42 as FP7 does, or unsupported */
  exrtCode?: string;
  /** speaks MEWTOCOL7 (FP7) besides MEWTOCOL-COM */
  mewtocol7: boolean;
  /** MEWTOCOL7 STRD: FP7 model code (mewtocol.md §4.4 last row, '03' = CPS41E) and the three 4-digit versions */
  fp7Model?: string;
  fp7Versions?: readonly [string, string, string];
  areas: AreaSizes;
}

export const CPU_PROFILES: Record<CpuModel, CpuProfile> = {
  // spec §9: DT 0-999424, LD 16384, FL 32765, WR 2048, WL 1024, WY 512, WX 512
  FP7: {
    model: 'FP7',
    rtCode: '00',
    version: '00',
    capacityK: '00',
    mewtocol7: true,
    fp7Model: '03',
    fp7Versions: ['0453', '0453', '0453'],
    areas: { DT: 999425, FL: 32765, LD: 16384, WR: 2048, WL: 1024, WY: 512, WX: 512 },
  },
  // FP0 C32 (RT 06, EXRT 41, 5k): no Modbus table in the reference; FP0 manuals' DT 1660 / WR 62
  FP0: {
    model: 'FP0',
    rtCode: '06',
    version: '23',
    capacityK: '05',
    exrtCode: '41',
    mewtocol7: false,
    areas: { DT: 1660, FL: 0, LD: 0, WR: 62, WL: 0, WY: 7, WX: 7 },
  },
  // FP0R C32 (EXRT 47, 32k); no classic RT code is known for FP0R (mewtocol.md §4.2): it answers the FP-Sigma group code
  FP0R: {
    model: 'FP0R',
    rtCode: '20',
    version: '12',
    capacityK: '32',
    exrtCode: '47',
    mewtocol7: false,
    areas: { DT: 32765, FL: 0, LD: 256, WR: 256, WL: 128, WY: 110, WX: 110 },
  },
  // FP-X C30R (RT 20 group, EXRT 71): §8 FP-X table DT 0-32764, WL 0-127, LD 0-255
  'FP-X': {
    model: 'FP-X',
    rtCode: '20',
    version: '25',
    capacityK: '32',
    exrtCode: '71',
    mewtocol7: false,
    areas: { DT: 32765, FL: 32765, LD: 256, WR: 256, WL: 128, WY: 110, WX: 110 },
  },
  // FP-XH C30R (RT 20 group, EXRT A1): §8 FP-XH table DT 0-65532, R0-R511F, Y/X0-X109F
  'FP-XH': {
    model: 'FP-XH',
    rtCode: '20',
    version: '16',
    capacityK: '32',
    exrtCode: 'A1',
    mewtocol7: false,
    areas: { DT: 65533, FL: 32765, LD: 256, WR: 512, WL: 128, WY: 110, WX: 110 },
  },
  // FP2 32k (RT 50, EXRT 50): no table in the reference; FP2 manuals' DT 6144
  FP2: {
    model: 'FP2',
    rtCode: '50',
    version: '21',
    capacityK: '32',
    exrtCode: '50',
    mewtocol7: false,
    areas: { DT: 6144, FL: 32765, LD: 8448, WR: 253, WL: 128, WY: 300, WX: 300 },
  },
};
