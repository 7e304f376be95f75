// The live state of the TLS bridge (spec §3 pew_tls): each part's listener, the PLC's stop, and the
// counters of its connections. `GET /config/tls_status`; plain types, so the console can import them.

export interface TlsPartCounters {
  /** connections carried to the destination since the part started */
  accepted: number;
  /** clients turned away: address not allowed, or the PLC stopped the part */
  refused: number;
  /** TLS handshakes that failed (untrusted or missing certificate, version below the minimum …) */
  tlsFailures: number;
  /** destinations that could not be reached, connections that broke */
  errors: number;
}

export interface TlsPartStatus extends TlsPartCounters {
  /** the part's switch in the saved section */
  enabled: boolean;
  /** the port it listens on: nontls_server_port (client part), tls_server_port (server part) */
  port: number;
  listening: boolean;
  /** the PLC stopped the part through its control register (docs/tls.md) */
  stoppedByPlc: boolean;
  /** why the part does not listen, when it does not */
  detail: string;
  /** connections open now */
  connections: number;
  /** payload bytes from the clients to the destination, and back */
  bytesIn: number;
  bytesOut: number;
}

export interface TlsStatus {
  client: TlsPartStatus;
  server: TlsPartStatus;
}
