// The capture's downloads (docs/monitor.md "Downloads"): a text file, one line per record, and a
// pcap file that Wireshark and tshark open with their own dissectors. Every frame becomes the
// payload of an IPv4/TCP segment between the unit (10.0.0.1) and its peer: a redirect thread's or
// the IEC 104 station's real client address and port, the unit's real port, so Modbus/TCP (502)
// and IEC 104 (2404) decode as they are; a PLC link's line as a connection to 10.0.0.2 on port
// 502 (Modbus/TCP), 9000 + n for COMn (9005 INTERNAL) otherwise: MEWTOCOL shows as text, and a
// Modbus RTU line decodes with "Decode As… TCP port 900n → Modbus RTU". Sequence numbers run on per
// direction, so TCP reassembly sees one stream.

import { printable } from '../com/dialog.ts';
import type { CaptureProtocol } from '../model/monitor.ts';
import type { CaptureRecord } from './capture.ts';
import { type DecodedFrame, decodeFrame } from './decode.ts';

const UNIT_IP = [10, 0, 0, 1];
const PLC_IP = [10, 0, 0, 2];
const OTHER_IP = [10, 0, 0, 3];
const LINKTYPE_RAW = 101; // raw IPv4/IPv6 packets

const LINK_PORTS: Record<string, number> = { COM1: 9001, COM2: 9002, COM3: 9003, COM4: 9004, INTERNAL: 9005 };

const ascii = (p: CaptureProtocol | undefined) => p === 'mewtocol' || p === 'mewtocol7';
const latin1Bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** The frame's bytes as the monitor shows them: printable text (ASCII protocols) and hex. */
export function frameTexts(r: CaptureRecord): { text: string; hex: string } {
  const b = latin1Bytes(r.data ?? '');
  return { text: printable(b, ascii(r.protocol)), hex: printable(b, false) };
}

/** One line of decoded meaning, in the protocol's own terms (the text download). */
export function summary(d: DecodedFrame): string {
  const parts: string[] = [d.what];
  if (d.command) parts.push(d.command);
  if (d.station !== undefined) parts.push(`station ${d.station}`);
  if (d.area) parts.push(d.start !== undefined ? `${d.area} ${d.start}${d.count && d.count > 1 ? `-${d.start + d.count - 1}` : ''}` : d.area);
  if (d.values) parts.push(`= ${d.values.join(' ')}${d.more ? ` (+${d.more})` : ''}`);
  if (d.error) parts.push(`error ${d.error.code} ${d.error.key}`);
  if (d.problem) parts.push(`(${d.problem})`);
  if (d.iec) {
    const i = d.iec;
    if (i.u) parts.push(i.u);
    if (i.ns !== undefined) parts.push(`N(S)=${i.ns}`);
    if (i.nr !== undefined) parts.push(`N(R)=${i.nr}`);
    if (i.type) parts.push(`${i.type} COT=${i.cot}${i.negative ? ' negative' : ''}${i.test ? ' test' : ''}`);
    if (i.ioas?.length) parts.push(`IOA ${i.ioas.join(',')}`);
  }
  return parts.join(' ');
}

export const decodedOf = (r: CaptureRecord): DecodedFrame | undefined =>
  r.kind === 'frame' && r.protocol ? decodeFrame(r.protocol, r.data ?? '', r.reply === true, r.request) : undefined;

/** The text download: time, source, direction, peer, decoded meaning, round trip, the bytes. */
export function captureText(records: readonly CaptureRecord[]): string {
  const lines = records.map((r) => {
    const head = [new Date(r.t).toISOString(), r.source, r.kind === 'event' ? 'event' : r.dir, r.peer ?? '-'].join('\t');
    if (r.kind === 'event') return `${head}\t${r.event}${r.args ? ` ${JSON.stringify(r.args)}` : ''}`;
    const d = decodedOf(r);
    const { text, hex } = frameTexts(r);
    return `${head}\t${d ? summary(d) : ''}${r.rttMs !== undefined ? `\trtt ${r.rttMs} ms` : '\t'}\t${text}\t${hex}`;
  });
  return `${['time', 'source', 'direction', 'peer', 'meaning', 'round trip', 'text', 'hex'].join('\t')}\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
}

interface Ends {
  unit: number[];
  unitPort: number;
  peer: number[];
  peerPort: number;
}

function endsOf(r: CaptureRecord, iecPort: number): Ends {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+):(\d+)$/.exec(r.peer ?? '');
  const peer = m ? m.slice(1, 5).map(Number) : OTHER_IP;
  const peerPort = m ? Number(m[5]) : 49152;
  if (r.source.startsWith('port:')) return { unit: UNIT_IP, unitPort: Number(r.source.slice(5)), peer, peerPort };
  if (r.source === 'iec104') return { unit: UNIT_IP, unitPort: iecPort, peer, peerPort };
  const plcPort = r.protocol === 'modbus_tcp' ? 502 : (LINK_PORTS[r.source] ?? 9000);
  // the unit is the client of its PLC: its own port stands for the link
  return { unit: UNIT_IP, unitPort: 40000 + (LINK_PORTS[r.source] ?? 9000) - 9000, peer: PLC_IP, peerPort: plcPort };
}

function checksum(b: Uint8Array, start: number, end: number, initial = 0): number {
  let sum = initial;
  for (let i = start; i < end; i += 2) sum += ((b[i] as number) << 8) | (i + 1 < end ? (b[i + 1] as number) : 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

function packet(src: number[], sport: number, dst: number[], dport: number, seq: number, ack: number, payload: Uint8Array, id: number): Uint8Array {
  const p = new Uint8Array(40 + payload.length);
  const dv = new DataView(p.buffer);
  p[0] = 0x45;
  dv.setUint16(2, p.length);
  dv.setUint16(4, id & 0xffff);
  p[6] = 0x40; // don't fragment
  p[8] = 64;
  p[9] = 6; // TCP
  p.set(src, 12);
  p.set(dst, 16);
  dv.setUint16(10, checksum(p, 0, 20));
  dv.setUint16(20, sport);
  dv.setUint16(22, dport);
  dv.setUint32(24, seq >>> 0);
  dv.setUint32(28, ack >>> 0);
  p[32] = 0x50; // header length 20
  p[33] = 0x18; // PSH, ACK
  dv.setUint16(34, 65535);
  p.set(payload, 40);
  // the TCP checksum over the pseudo header (addresses, protocol, length) and the segment
  const pseudo = [...src, ...dst].reduce((s, _, i, a) => (i % 2 ? s + (((a[i - 1] as number) << 8) | (a[i] as number)) : s), 0) + 6 + (20 + payload.length);
  dv.setUint16(36, checksum(p, 20, p.length, pseudo));
  return p;
}

/** The pcap download: every frame record as an IPv4/TCP packet (events are left out). */
export function capturePcap(records: readonly CaptureRecord[], iecPort: number): Uint8Array<ArrayBuffer> {
  const packets: { t: number; p: Uint8Array }[] = [];
  const seqs = new Map<string, number>();
  let id = 1;
  for (const r of records) {
    if (r.kind !== 'frame' || !r.data) continue;
    const e = endsOf(r, iecPort);
    const fromUnit = r.dir === 'out';
    const [src, sport, dst, dport] = fromUnit ? [e.unit, e.unitPort, e.peer, e.peerPort] : [e.peer, e.peerPort, e.unit, e.unitPort];
    const key = (a: number[], ap: number, b: number[], bp: number) => `${a.join('.')}:${ap}>${b.join('.')}:${bp}`;
    const fwd = key(src, sport, dst, dport);
    const back = key(dst, dport, src, sport);
    const seq = seqs.get(fwd) ?? 1;
    const payload = latin1Bytes(r.data);
    packets.push({ t: r.t, p: packet(src, sport, dst, dport, seq, seqs.get(back) ?? 1, payload, id++) });
    seqs.set(fwd, seq + payload.length);
  }
  const size = 24 + packets.reduce((n, x) => n + 16 + x.p.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0xa1b2c3d4, true); // microsecond timestamps, little-endian
  dv.setUint16(4, 2, true);
  dv.setUint16(6, 4, true);
  dv.setUint32(16, 65535, true);
  dv.setUint32(20, LINKTYPE_RAW, true);
  let at = 24;
  for (const { t, p } of packets) {
    dv.setUint32(at, Math.floor(t / 1000), true);
    dv.setUint32(at + 4, Math.round((t % 1000) * 1000), true);
    dv.setUint32(at + 8, p.length, true);
    dv.setUint32(at + 12, p.length, true);
    out.set(p, at + 16);
    at += 16 + p.length;
  }
  return out;
}
