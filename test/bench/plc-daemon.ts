// Bench support: a daemon whose COM1 holds a virtual FP-XH (MEWTOCOL, 115200 8O1, in process) as
// the service control interface, for the figures of the services the PLC drives (mqtt.ts, sql.ts).

import type { Pew } from '../../device/model/sections/pew.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { COM1, com1AsControlInterface } from '../support/control-interface.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

export const FRAMING = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 } as const;
export { COM1 };

export async function daemonWithPlcOnCom1(dataDir: string): Promise<{ d: TestDaemon; plc: VirtualPlc; admin: Client }> {
  const plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
  const d = await startTestDaemon({ dataDir, serial: { virtualPorts: { COM1: (s) => wire.open(s) } } });
  const admin = await d.admin();
  const pew = (await admin.get('/config/pew')).body as Pew;
  com1AsControlInterface(pew, FRAMING);
  if ((await admin.post('/config/pew', pew)).status !== 200) throw new Error('pew not saved');
  return { d, plc, admin };
}
