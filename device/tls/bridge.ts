// The TLS bridge of the saved pew_tls section (spec §3 pew_tls): its client part and its server
// part, kept in line with every save of pew_tls (and of pew, whose service control interface
// carries the PLC registers) like the redirect threads follow pew_redirect (config/follow.ts).
// A part whose settings and certificate files are unchanged keeps its connections.

import type { Links } from '../com/links.ts';
import { followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import { reason, type StatusReason } from '../model/reasons.ts';
import type { Pew } from '../model/sections/pew.ts';
import { type Tls, tlsSchema } from '../model/sections/tls.ts';
import type { TlsStatus } from '../model/tls-status.ts';
import type { Logger } from '../system/log.ts';
import { clientTlsOptions, TlsClientPart } from './client-part.ts';
import { CertError } from './keys.ts';
import type { BridgePart, PartName, PartStatus } from './part.ts';
import { statusWord, stopRequested } from './plc-registers.ts';
import { serverTlsOptions, TlsServerPart } from './server-part.ts';

export type TlsBridgeStatus = TlsStatus;

export interface TlsBridge {
  status(): TlsBridgeStatus;
  /** resolves when the last saved pew_tls is applied */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface TlsBridgeDeps {
  store: ConfigStore;
  links: Links;
  log: Logger;
  dataDir: string;
  /** the address the parts listen on (the daemon's) */
  host: string;
}

interface Slot {
  /** the settings and certificates the running part was built from */
  key: string;
  part: BridgePart | undefined;
  port: number;
  enabled: boolean;
  reason: StatusReason | undefined;
  poller: RegisterPoller | undefined;
}

// the fields of each part, in the schema's order: the client part's come before enable_tlsserver
const FIELDS = Object.keys(tlsSchema.entries) as (keyof Tls)[];
const SPLIT = FIELDS.indexOf('enable_tlsserver');
const PART_FIELDS: Record<PartName, readonly (keyof Tls)[]> = { client: FIELDS.slice(0, SPLIT), server: FIELDS.slice(SPLIT) };
const partSettings = (t: Tls, name: PartName) => PART_FIELDS[name].map((f) => t[f]);

const idle = (port: number, enabled: boolean, why: StatusReason | undefined): PartStatus => ({
  enabled,
  port,
  listening: false,
  stoppedByPlc: false,
  ...(why ? { reason: why } : {}),
  connections: 0,
  accepted: 0,
  refused: 0,
  tlsFailures: 0,
  errors: 0,
  faults: 0,
  bytesIn: 0,
  bytesOut: 0,
});

/** Reads the part's control word and writes its status word every `pollS` seconds (plc-registers.ts). */
class RegisterPoller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();
  private written: number | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly part: BridgePart,
    private readonly io: {
      links: Links;
      interfaceId: number;
      register: number;
      pollS: number;
      user: string;
    },
  ) {}

  start(): void {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.poll().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.io.pollS * 1000);
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async poll(): Promise<void> {
    const link = this.io.links.get(this.io.interfaceId);
    if (!link) return; // no service control interface: the part runs as the console set it
    try {
      const [control] = await link.readWords('DT', this.io.register, 1, this.io.user);
      if (!this.stopped) await this.part.setStoppedByPlc(stopRequested(control ?? 0));
    } catch {
      // unreadable: the part keeps its last state
    }
    const s = this.part.status();
    const failures = s.tlsFailures + s.errors;
    const word = statusWord(s, failures - this.failures);
    this.failures = failures;
    if (word === this.written) return;
    try {
      await link.writeWords('DT', this.io.register + 1, [word], this.io.user);
      this.written = word;
    } catch {
      this.written = undefined; // written again at the next poll
    }
  }
}

export async function startTlsBridge(deps: TlsBridgeDeps): Promise<TlsBridge> {
  const { store, links, log, dataDir, host } = deps;
  const slots: Record<PartName, Slot> = {
    client: { key: '', part: undefined, port: 0, enabled: false, reason: undefined, poller: undefined },
    server: { key: '', part: undefined, port: 0, enabled: false, reason: undefined, poller: undefined },
  };

  const stopSlot = async (slot: Slot) => {
    await slot.poller?.stop();
    slot.poller = undefined;
    await slot.part?.close();
    slot.part = undefined;
    slot.key = '';
  };

  async function applyPart(name: PartName, t: Tls, pew: Pew): Promise<void> {
    const slot = slots[name];
    const enabled = name === 'client' ? t.enable_tlsclient : t.enable_tlsserver;
    slot.enabled = enabled;
    slot.port = name === 'client' ? t.nontls_server_port : t.tls_server_port;
    slot.reason = undefined;
    if (!enabled) {
      await stopSlot(slot);
      return;
    }
    let part: BridgePart;
    let certs: unknown;
    try {
      if (name === 'client') {
        const options = await clientTlsOptions(t, dataDir);
        certs = options;
        part = new TlsClientPart(t, options, host, log);
      } else {
        const options = await serverTlsOptions(t, dataDir);
        certs = options;
        part = new TlsServerPart(t, options, host, log);
      }
    } catch (e) {
      // a missing file (CertError) or one the TLS library refuses (a key that does not match its certificate)
      const words = e instanceof Error ? e.message : String(e);
      await stopSlot(slot);
      slot.reason = e instanceof CertError ? e.reason : reason('cert_unusable', undefined, words);
      log.warn(`TLS ${name} cannot start`, { error: e instanceof CertError ? words : `The certificates of the TLS ${name} cannot be used: ${words}` });
      return;
    }
    const register = name === 'client' ? t.plc_control_dt : t.plc_status_dt;
    const pollS = name === 'client' ? t.plc_poll : t.plc_poll_tlsserver;
    // the options hold the certificate texts: a file uploaded again under its name restarts the part at the next save
    const key = JSON.stringify({ settings: partSettings(t, name), certs, plc: [pew.interface_plc, register, pollS] });
    if (key === slot.key && slot.part) return;
    await stopSlot(slot);
    await part.start();
    slot.part = part;
    slot.key = key;
    slot.poller = new RegisterPoller(part, { links, interfaceId: pew.interface_plc, register, pollS, user: `tls-${name}` });
    slot.poller.start();
  }

  const follower = await followSection(store, ['pew_tls', 'pew'], log, async () => {
    const t = store.get<Tls>('pew_tls');
    const pew = store.get<Pew>('pew');
    await applyPart('client', t, pew);
    await applyPart('server', t, pew);
  });

  const statusOf = (slot: Slot) => slot.part?.status() ?? idle(slot.port, slot.enabled, slot.reason);
  return {
    status: () => ({ client: statusOf(slots.client), server: statusOf(slots.server) }),
    settled: () => follower.settled(),
    close: async () => {
      await follower.stop();
      await stopSlot(slots.client);
      await stopSlot(slots.server);
    },
  };
}
