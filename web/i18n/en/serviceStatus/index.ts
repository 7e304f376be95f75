// English: the texts of the live status of the services the PLC drives (the one status answer,
// GET /config/service_status) on /mqtt, /httpc, /smtp and as a line per service on /info.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_serviceStatus = {
  title: 'Service status', runTitle: 'Services at run time', runIntro: 'What each service the PLC drives is doing now; updated every 1.5 s.',
  off: 'The service is not enabled.',
  state: 'State', since: 'Since', plc: 'PLC control block', plcOk: 'reachable', plcDown: 'not reachable',
  lastSuccess: 'Last success', lastError: 'Last error', never: 'none yet', none: 'none',
  code: 'error code {number}', queue: 'Queue', queueValue: '{waiting} waiting of {bound}', dropped: 'Dropped (queue full)',
  states: {
    off: 'off', connecting: 'connecting', connected: 'connected', reconnecting: 'reconnecting', idle: 'idle',
    running: 'running', waiting: 'waiting for the peer', error: 'error',
  },
  counters: {
    rows: 'Rows finished', written: 'Rows written',
    accepted: 'Connections carried', refused: 'Clients refused', tlsFailures: 'TLS handshakes failed', errors: 'Connection errors', faults: 'Faults contained',
    published: 'Published', received: 'Received', requests: 'Requests', sends: 'Sends', sent: 'Sent', failed: 'Failed', runs: 'Runs', overruns: 'Overruns',
  },
  errors: {
    none: 'no error',
    unknown_host: 'the server\'s name does not resolve',
    refused: 'nothing listens at the address, or the connection broke',
    timeout: 'no answer in time',
    tls: 'TLS handshake failed: certificate not trusted or version refused',
    auth_failed: 'user or password refused',
    server_refused: 'the server refused the request',
    local: 'a file on the unit cannot be read or written',
    other: 'another error (an answer not understood)',
    plc_area: 'a pointer outside the PLC memory',
    bad_string: 'a string without terminator within its bound, or longer than its bound',
    too_large: 'a payload or body longer than its bound',
    bad_request: 'a request value the service does not know',
    queue_full: 'the queue was full: its oldest job was dropped',
    not_connected: 'not connected: the job waits in the queue',
    table_mismatch: 'the table exists with other columns (or field types) than the row: the rows wait',
    bad_value: 'a value or type the database cannot hold: the row is not written',
  },
} satisfies BaseTranslation;

export default en_serviceStatus;
