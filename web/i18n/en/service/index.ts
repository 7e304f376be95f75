// English: the texts of the shared layout of the service pages, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_service = {
  general: 'General',
  specific: 'Connection',
  certificates: 'Certificates',
  downloads: 'Downloads',
  certNote: 'Names of uploaded certificate files ({ext}); leave empty when not used.',
  headers: {
    header: 'Header {n}',
    add: 'Add header',
    remove: 'Remove header',
    count: '{count} of {max} header{{s}}',
    none: 'No custom header: requests carry only the unit’s own.',
  },
  test: {
    test: 'Connection test',
    testing: 'Testing…',
    testNote: 'Runs on the saved settings against the configured server.',
    ok: 'Test passed: {peer} ({ms} ms).',
    failed: 'Test failed: {peer}: {reason}.',
    steps: {
      resolve: 'Host name resolved',
      connect: 'Connected',
      proxy: 'Through the proxy',
      tls: 'TLS established',
      login: 'Logged in',
      database: 'Database found',
      table: 'Table checked',
      request: 'Request answered',
      write: 'Written',
      read: 'Read back',
      list: 'Listed',
      send: 'Sent',
    },
    failures: {
      unknown_host: 'the host name is not known',
      refused: 'nothing answers at this address and port',
      timeout: 'no answer in time',
      tls_untrusted: "the server's certificate is not trusted",
      tls_version: 'the TLS version was refused',
      auth_failed: 'user name or password wrong',
      not_found: 'not found on the server',
      peer_error: 'the server reported an error',
      bad_reply: 'the answer was not understood',
      table_mismatch: 'the table exists with other columns than the data points need',
    },
  },
  examples: {
    library: 'PLC library (example)',
    mqtt: 'MQTT example',
    ftp: 'FTP client example',
    sql: 'SQL example',
    httpc: 'HTTP client example',
    email: 'E-mail example',
    rest: 'REST example',
    tls: 'TLS example',
    mongo: 'MongoDB example',
    influx: 'InfluxDB example',
  },
} satisfies BaseTranslation;

export default en_service;
