// node:tls for the daemon's modules, loaded with require instead of an ES import. An ES import of a
// built-in module reads every export once to build the module's namespace, and one export of
// node:tls, `rootCertificates`, is a getter that turns the whole bundled CA list (some 140
// certificates) into strings kept for the process's life: 0.9 MB of the daemon's idle memory that
// nothing uses (every TLS client here gets the CA list through node's own defaults or its `ca`).
// With require the namespace is not built and the getter never runs.
import { createRequire } from 'node:module';

const tls: typeof import('node:tls') = createRequire(import.meta.url)('node:tls');

export const { connect, createSecureContext, createServer } = tls;

/**
 * The TLS 1.2 suites the daemon's own TLS servers (the console, the TLS bridge's server part) offer:
 * Node's defaults without the CBC suites with SHA-1 MACs (docs/https.md TLS-3). TLS 1.3 has its own
 * AEAD-only list, which this does not touch.
 */
export const SERVER_CIPHERS = `${tls.DEFAULT_CIPHERS}:!SHA1`;
