// The seam between the daemon and the unit's hardware and operating system. `hw/linux` implements
// it on the unit; `sim/` implements it for the simulator and the tests.

/** spec §3: service names */
export const SERVICE_NAMES = [
  'avahi-daemon',
  'x11vnc',
  'snmpd',
  'cloud',
  'sshd',
  'ntpd',
  'firewall',
  'router',
  'bridge',
  'fastboot',
  'autorun',
  'dhcp_server',
  'usb_device_restore',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceState {
  name: ServiceName;
  enabled: boolean;
}

export interface NetworkInterface {
  name: string;
  mac: string;
  ipv4: string[]; // "a.b.c.d/prefix"
  dhcp: boolean;
  up: boolean;
}

export interface Versions {
  app: string; // this daemon's version
  bsp: string; // board support package, e.g. "1.3.2"
  hmi: string; // HMI runtime, e.g. "4.5.0"
}

export interface SystemInfo {
  os: { name: string; version: string; kernel: string; hostname: string; uptimeSeconds: number; arch: string };
  network: { interfaces: NetworkInterface[]; gateway: string; dns: string[] };
  datetime: { iso: string; timezone: string; ntp: { enabled: boolean; servers: string[]; synchronized: boolean } };
  apps: { name: string; version: string }[];
  versions: Versions;
  memory: { totalBytes: number; freeBytes: number };
}

/** spec §3: storage internal 0, USB 1, temp 2 */
export const VOLUME_IDS = ['internal', 'usb', 'temp'] as const;
export type VolumeId = (typeof VOLUME_IDS)[number];

export interface Volume {
  id: VolumeId;
  /** folder where this volume's files live; files are only ever resolved inside it */
  path: string;
  mounted: boolean;
  totalBytes: number;
  freeBytes: number;
}

export interface SerialPortInfo {
  /** which unit connector this is (COM1, COM2, COM3) */
  connector: string;
  /** device path, e.g. /dev/ttymxc1 or a pseudo-terminal in tests */
  path: string;
  present: boolean;
}

/** Line settings of a serial port (spec §3 COM interface: baudrate, bits, parity, stopbits, flow). */
export interface SerialSettings {
  baudRate: number;
  dataBits: 7 | 8;
  parity: 'none' | 'odd' | 'even';
  stopBits: 1 | 2;
  rtscts: boolean;
}

/**
 * An open byte stream to a PLC: a serial port, a TCP connection or an in-process wire. Writes are
 * fire-and-forget (the wire paces them); bytes arrive through the one data handler; `onClose`
 * fires once when the stream ends by itself (device unplugged, peer closed), never after `close()`.
 */
export interface ByteChannel {
  write(bytes: Uint8Array): void;
  onData(handler: (bytes: Uint8Array) => void): void;
  onClose(handler: (error?: Error) => void): void;
  close(): Promise<void>;
  readonly isOpen: boolean;
}

/** Injected time source, so that engines and tests agree on "now" (architecture: time is injected). */
export interface Clock {
  now(): number; // ms since the epoch
}

export interface Hw {
  readonly kind: 'linux' | 'sim';
  readonly clock: Clock;
  systemInfo(): Promise<SystemInfo>;
  services(): Promise<ServiceState[]>;
  setService(name: ServiceName, enabled: boolean): Promise<void>;
  volumes(): Promise<Volume[]>;
  serialPorts(): Promise<SerialPortInfo[]>;
  /** Opens the serial port of a connector (COM1..COM3) with these settings; rejects when it is absent or cannot be opened. */
  openSerial(connector: string, settings: SerialSettings): Promise<ByteChannel>;
  /** TCP ports taken by the system itself (not by this daemon's configured listeners) */
  systemTcpPorts(): Promise<number[]>;
  /**
   * Sets the unit's clock to `epochMs` (a control station's clock sync): 'set', or 'ntp' when the
   * NTP service is on and keeps the clock (it is left alone); rejects when it cannot be set.
   */
  setClock(epochMs: number): Promise<ClockSetting>;
}

/** what a clock setting did: the clock was set, or NTP keeps it */
export type ClockSetting = 'set' | 'ntp';

export const systemClock: Clock = { now: () => Date.now() };
