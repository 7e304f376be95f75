// English: the texts of the ports page (/port) and the restriction editor, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_port = {
  intro:
    'Each thread opens a TCP port for clients and forwards their requests to one interface, limited to the PLC words its restrictions grant. No restriction means no access; Blocked wins over a grant.',
  noThreads: 'No port is open. Add a thread to open one.',
  addThread: 'Add thread',
  removeThread: 'Remove thread',
  thread: 'Thread {n} · port {port}',
  allAddresses: 'Every client address is accepted (0.0.0.0 – 0.0.0.0).',
  gatewayNote: 'Modbus/TCP gateway: each restriction appears in its Modbus table from its Modbus start on.',
  restrictions: 'Restrictions',
  restrictionN: 'restriction {n}',
  noRestrictions: 'No restriction yet: the clients of this port can reach no PLC word.',
  addRestriction: 'Add restriction',
  removeRestriction: 'Remove',
  areaRange: '{area} words 0 – {max}',
  modbusRange: 'Modbus {first} – {last} ({unit})',
  words: 'registers',
  bits: 'bits',
  status: 'Port status',
  unavailable: 'Status unavailable',
  notSaved: 'Not saved yet: no status.',
  listening: 'listening on {port}',
  closed: 'not listening ({port})',
  stats: {
    clients: 'Clients',
    requests: 'Requests',
    refused: 'Refused',
    errors: 'Errors',
    bytesIn: 'Bytes received',
    bytesOut: 'Bytes sent',
    faults: 'Faults contained',
  },
  test: 'Connection test',
  testing: 'Testing…',
  testNote: 'The test uses the saved settings.',
  testOk: 'The PLC answered through this port.',
  testFailed: 'Connection test failed.',
  reasons: {
    not_listening: 'The port is not listening.',
    refused: 'The port refused the connection.',
    no_answer: 'The PLC did not answer.',
    error_answer: 'The PLC answered with an error.',
  },
  request: 'Request sent',
  raw: 'Raw reply',
  nothing: 'nothing',
} satisfies BaseTranslation;

export default en_port;
