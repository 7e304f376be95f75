// Each virtual CPU identifies itself as the real model would: its RT code names a family group that
// contains the model, and its EXRT machine type names exactly the model (the PLC test decodes both
// with device/protocol).
import { describe, expect, it } from 'vitest';
import { exrtCpu, rtCpu } from '../../device/protocol/mewtocol-status.ts';
import { CPU_MODELS, CPU_PROFILES } from './profiles.ts';

describe('virtual CPU profiles', () => {
  it.each(CPU_MODELS.map((m) => [m]))('%s answers RT and EXRT like the real model', (model) => {
    const p = CPU_PROFILES[model];
    const family = model === 'FP0R' ? 'FP-Sigma' : model; // no classic RT code exists for FP0R (mewtocol.md §4.2)
    expect(rtCpu(parseInt(p.rtCode, 16)).families).toContain(family);
    if (p.exrtCode) expect(exrtCpu(parseInt(p.exrtCode, 16)).name).toBe(model);
    expect(p.mewtocol7).toBe(model === 'FP7');
    // MEWTOCOL7 STRD needs the FP7 model code and versions; the other models have none
    expect(p.fp7Model !== undefined && p.fp7Versions !== undefined).toBe(p.mewtocol7);
  });
});
