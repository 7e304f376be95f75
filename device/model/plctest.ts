// The PLC test and the live link status (spec §2 /com, §5, §8): the request the console sends and
// the answers it gets, one definition for the daemon and the console.
import * as v from 'valibot';
import { INTERFACE_IDS, PROTOCOLS } from './plc.ts';

export const plcTestRequest = v.strictObject({ id: v.picklist(INTERFACE_IDS) });
export type PlcTestRequest = v.InferOutput<typeof plcTestRequest>;

type Protocol = (typeof PROTOCOLS)[number];
/** why a PLC test failed: no answer in time, an error answer, an unreadable answer, the port not usable */
export type PlcTestFailure = 'no_answer' | 'plc_error' | 'bad_reply' | 'link_down';

export type PlcTestResult =
  | { ok: true; id: number; protocol: Protocol; cpu: { name: string; family: string }; model?: string; version?: string; mode?: 'RUN' | 'PROG'; note?: string; raw: string }
  | { ok: false; id: number; protocol: Protocol; reason: PlcTestFailure; message: string; code?: number; raw: string };

export type LinkStateName = 'disabled' | 'connecting' | 'up' | 'down' | 'absent';

export interface LinkStatusView {
  id: number;
  name: string;
  enabled: boolean;
  protocol: Protocol;
  transport: 'serial' | 'tcp' | 'internal';
  state: LinkStateName;
  detail: string;
  baudRate?: number;
  autobaud?: 'searching' | 'found' | 'failed';
  stats: { requests: number; errors: number; timeouts: number; retries: number; bytesOut: number; bytesIn: number; busyShare: number };
}
