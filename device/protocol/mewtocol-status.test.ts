import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeExrtData, decodeRtData, encodeExrtData, encodeRtData, errorFlags, exrtCpu, modeFlags, rtCpu } from './mewtocol-status.ts';

const rt = (data: string) => {
  const r = decodeRtData(data);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('RT status (mewtocol.md §4.1)', () => {
  it('FP-X C14R capture %EE$RT2025168000E12D00', () => {
    const s = rt('2025168000E12D00');
    expect(s).toMatchObject({
      cpuCode: 0x20,
      version: '25',
      versionText: '2.5',
      capacityK: 16,
      modeByte: 0x80,
      link: 0,
      errorByte: 0xe1,
      selfDiag: 45,
      extra: '',
    });
    expect(s.cpu).toEqual({ code: 0x20, name: 'FP-Sigma/FP-X/FP-XH', families: ['FP-Sigma', 'FP-X', 'FP-XH'] });
    expect(s.mode).toMatchObject({ run: false, remote: true, test: false }); // 80 = remote + PROG
    expect(s.errors).toMatchObject({ selfDiagnostic: true, batteryRealTime: true, batteryHold: true, operationError: true, powerDip: false });
    expect(encodeRtData(s)).toBe('2025168000E12D00');
  });

  it('FP-XH C14R capture %EE$RT2016168100600000: remote + RUN', () => {
    const s = rt('2016168100600000');
    expect(s).toMatchObject({ cpuCode: 0x20, versionText: '1.6', capacityK: 16, modeByte: 0x81, errorByte: 0x60, selfDiag: 0 });
    expect(s.mode).toMatchObject({ run: true, remote: true });
  });

  it('FP-X0 L14, FP0 2.7k and FP7 captures', () => {
    expect(rt('7212028200000000')).toMatchObject({ cpu: { name: 'FP-X0' }, capacityK: 2, mode: { test: true, remote: true, run: false } });
    expect(rt('0512038200000000')).toMatchObject({ cpu: { name: 'FP0/FP1', families: ['FP0', 'FP1'] }, capacityK: 3 });
    expect(rt('0000000100000000')).toMatchObject({ cpu: { name: 'FP7', families: ['FP7'] }, mode: { run: true } });
  });

  it('CPU type codes map to names (§4.2), unknown codes to "unknown"', () => {
    expect(rtCpu(0x50).name).toBe('FP2');
    expect(rtCpu(0x60).name).toBe('FP2SH');
    expect(rtCpu(0x06).families).toEqual(['FP0', 'FP1']);
    expect(rtCpu(0x99)).toEqual({ code: 0x99, name: 'unknown', families: [] });
    // FP0R, FP0H, FP-e only through EXRT machine types (§4.4)
    expect(exrtCpu(0x46).name).toBe('FP0R');
    expect(exrtCpu(0x49).name).toBe('FP0R');
    expect(exrtCpu(0xa0).name).toBe('FP-XH');
    expect(exrtCpu(0xb1).name).toBe('FP0H');
    expect(exrtCpu(0x45).name).toBe('FP-e');
    expect(exrtCpu(0x70).name).toBe('FP-X');
    expect(exrtCpu(0x44).name).toBe('FP-Sigma');
    expect(exrtCpu(0x01).name).toBe('unknown');
  });

  it('flag bytes bit by bit (§4.3)', () => {
    expect(modeFlags(0x01)).toEqual({
      run: true,
      test: false,
      breakExecuted: false,
      breakEnabled: false,
      outputRefresh: false,
      stepEnabled: false,
      message: false,
      remote: false,
    });
    expect(errorFlags(0x02).powerDip).toBe(true);
    expect(errorFlags(0x10).ioVerify).toBe(true);
  });

  it('rejects short or non-hex data', () => {
    expect(decodeRtData('2025')).toMatchObject({ ok: false, error: { code: 'bad_length' } });
    expect(decodeRtData('ZZ25168000E12D00')).toMatchObject({ ok: false, error: { code: 'bad_data' } });
    expect(decodeRtData('2025AB8000E12D00')).toMatchObject({ ok: false, error: { code: 'bad_data' } }); // capacity is decimal
  });

  it('property: RT data round-trips', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-F]{4}[0-9]{2}[0-9A-F]{10}$/), (data) => {
        expect(encodeRtData(rt(data))).toBe(data);
      }),
    );
  });
});

describe('EXRT status (mewtocol.md §4.4, single source)', () => {
  it('decodes the leading fields of an FP0R reply', () => {
    // count 32, type 46, 00, capacity 32, mode 82, link 00, errors 00, diag 0000, version 12, hw 00, rest
    const data = '32' + '46' + '00' + '32' + '82' + '00' + '00' + '0000' + '12' + '00' + '0REST';
    const r = decodeExrtData(data);
    expect(r.ok && r.value).toMatchObject({
      itemCount: '32',
      machineType: 0x46,
      cpu: { name: 'FP0R' },
      capacity: '32',
      modeByte: 0x82,
      version: '12',
      hwInfo: '00',
      rest: '0REST',
    });
    if (r.ok) expect(encodeExrtData(r.value)).toBe(data);
  });
});
