// Version compatibility (spec §5: app, BSP at least 1.3, HMI runtime at least 4.5.0; spec §9
// minimums app 1450, BSP 13000, HMI 450000 in the unit's numeric form).
export const MIN_VERSIONS = { app: '1.4.5', bsp: '1.3', hmi: '4.5.0' } as const;
export type VersionKind = keyof typeof MIN_VERSIONS;

/** Compares dotted versions numerically ("1.10" > "1.9"); missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** The kinds whose installed version is below the minimum (each gives an incompatibility warning). */
export function incompatible(versions: Record<VersionKind, string>): VersionKind[] {
  return (Object.keys(MIN_VERSIONS) as VersionKind[]).filter((k) => compareVersions(versions[k], MIN_VERSIONS[k]) < 0);
}
