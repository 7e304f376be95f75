// English: the texts of the FTP send status on /ftp, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_ftpStatus = {
  title: 'Send status',
  off: 'The FTP send is not enabled.',
  plc: 'PLC control block',
  plcOk: 'reachable',
  plcDown: 'not reachable',
  state: 'State',
  states: { idle: 'idle', running: 'running', done: 'done', error: 'error' },
  code: 'error code {number}',
  localDir: 'Local directory',
  nextCycle: 'Next send of the cycle',
  noCycle: 'no transmission cycle',
  retryAt: 'Next retry',
  noRetry: 'none waiting',
  lastSend: 'Last send',
  never: 'none yet',
  triggers: { plc: 'on PLC request', cycle: 'by the transmission cycle', script: "by the script's send" },
  files: 'Files sent',
  bytes: 'Bytes',
  failed: 'Not sent',
  held: 'Held back (logger still writing)',
  deleted: 'Deleted after sending',
  renamed: 'Sent under a numbered name (its own was taken)',
  attempts: 'Attempts',
  error: 'Error',
  none: 'none',
  codes: {
    unknown_host: "the server's (or proxy's) name does not resolve",
    refused: 'nothing listens, or the connection broke during the send',
    timeout: 'no answer within 10 s',
    tls: 'TLS handshake failed: certificate not trusted or version refused',
    auth_failed: 'user or password refused',
    server_refused: 'the server refused the directory or a file',
    local: 'the local directory is missing or not mounted, or a file cannot be read or renamed',
    other: 'another error (an answer not understood, the send stopped by a settings change)',
  },
} satisfies BaseTranslation;

export default en_ftpStatus;
