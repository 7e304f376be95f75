// English: the texts of the COM page (/com) and the link states other pages show, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_com = {
  kinds: { '0': 'RS232', '3': 'RS485/RS232', '1': 'USB', '4': 'memory of the unit', '5': 'Ethernet' },
  plc: 'PLC settings', restart: 'Restart',
  off: 'Not enabled: the settings are kept but not used.',
  protocolFixed: 'Modbus (fixed)',
  internalNote: 'The unit\'s own memory, read and written over Modbus: holding registers {min} – {max} hold your data.',
  offset: 'Address offset', offsetOff: 'Disabled', offsetOn: 'In use',
  test: 'PLC test', testing: 'Testing…', testNote: 'The test uses the saved settings.',
  testOk: 'The PLC answered.', cpu: 'CPU type: {name}', cpuUnknown: 'unknown',
  family: 'Family', model: 'Model', version: 'Version', mode: 'Operating mode',
  failed: 'PLC test failed.',
  reasons: {
    no_answer: 'The PLC did not answer.', plc_error: 'The PLC answered with an error.',
    bad_reply: 'The reply could not be understood.', link_down: 'The connection to the PLC is down.',
  },
  errorCode: 'PLC error code {code}.',
  raw: 'Raw reply', noReply: 'no reply',
  status: 'Link status', unavailable: 'Status unavailable',
  states: { disabled: 'disabled', connecting: 'connecting', up: 'connected', down: 'no connection', absent: 'not present' },
  baud: '{rate} baud',
  autobaud: { searching: 'autobaud searching', found: 'found by autobaud', failed: 'autobaud failed' },
  stats: {
    requests: 'Requests', errors: 'Errors', timeouts: 'Timeouts', retries: 'Retries',
    bytesOut: 'Bytes sent', bytesIn: 'Bytes received', busyShare: 'Busy',
  },
} satisfies BaseTranslation;

export default en_com;
