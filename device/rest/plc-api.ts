// The unit's REST API (spec §1 "a REST API and HTTP server", §3 REST pew_api; docs/rest.md): PLC
// data read and written through the links of the saved pew section, and what the unit offers.
//
//   GET /api/v1/info                                   the unit, its interfaces and the limits below
//   GET /api/v1/plc/<interface>/<area>/<address>?count=n   read n words (or bits) from address on
//   PUT /api/v1/plc/<interface>/<area>/<address>       write { "values": [...] } from address on
//
// <interface> is an interface id of spec §3 (0, 3, 1, 4, 5) or its name (COM1, COM2, COM3,
// INTERNAL, COM4); <area> a word area (DT FL LD WR WL WY WX, address decimal, values 0-65535) or a
// bit area (X Y R L, address in the bit form of spec §5 such as 10F, values true/false). Every
// request is checked against the area limits of spec §9 before anything reaches the wire; inputs
// (WX, X) are read-only, and a write touches only the words the administrator listed in write_areas
// (security.md REST-2). Answers and errors are JSON with the daemon's error codes.
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { ApiError } from '../api/errors.ts';
import { PlcError } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import { msg } from '../model/issues.ts';
import { INTERFACE_IDS, INTERFACE_NAMES, type InterfaceId, TRANSPARENT } from '../model/plc.ts';
import { toIssues } from '../model/section.ts';
import { interfaceById, type Pew } from '../model/sections/pew.ts';
import { mayWrite, type WriteArea } from '../model/write-areas.ts';
import {
  AREA_MAX,
  BIT_AREA_WORDS,
  BIT_AREAS,
  type BitArea,
  bitIndex,
  formatBitOffset,
  isBitArea,
  isWordArea,
  parseBitOffset,
  WORD_AREAS,
  type WordArea,
} from '../protocol/areas.ts';

/** spec silent: one read or write moves at most 125 words (one Modbus FC3 request) or 256 bits */
export const MAX_WORDS = 125;
export const MAX_BITS = 256;
/** a write body holds at most MAX_BITS values: a few KiB of JSON */
export const REST_BODY_LIMIT = 16 * 1024;
/** the input areas: the PLC sets them from its inputs, a client never writes them */
export const READ_ONLY_AREAS: readonly string[] = ['WX', 'X'];

export interface PlcApiDeps {
  store: ConfigStore;
  links: Links;
  versions: { app: string };
}

/** The link id of an interface named in a path: its id or its name. */
export function interfaceOf(text: string): InterfaceId | undefined {
  const byName = (Object.entries(INTERFACE_NAMES) as [string, string][]).find(([, n]) => n === text.toUpperCase());
  if (byName) return Number(byName[0]) as InterfaceId;
  const n = /^\d$/.test(text) ? Number(text) : NaN;
  return (INTERFACE_IDS as readonly number[]).includes(n) ? (n as InterfaceId) : undefined;
}

type Target = { kind: 'words'; area: WordArea; start: number } | { kind: 'bits'; area: BitArea; index: number; word: number; bit: number };

/** The area and first address of a path, checked against spec §9; 400 with a code otherwise. */
export function targetOf(areaText: string, address: string): Target {
  const area = areaText.toUpperCase();
  if (isWordArea(area)) {
    if (!/^\d{1,7}$/.test(address))
      throw new ApiError(400, 'invalid_characters', 'The address of a word area is a decimal number', [{ path: 'address', code: 'invalid_characters' }]);
    const start = Number(address);
    if (start > AREA_MAX[area]) throw outOfRange(area, AREA_MAX[area]);
    return { kind: 'words', area, start };
  }
  if (isBitArea(area)) {
    const off = parseBitOffset(address);
    if (!off.ok)
      throw new ApiError(400, 'invalid_bit_address', 'A bit address is up to 3 decimal digits plus one hex digit (e.g. 10F)', [
        { path: 'address', code: 'invalid_bit_address' },
      ]);
    const max = AREA_MAX[BIT_AREA_WORDS[area]];
    if (off.value.word > max) throw outOfRange(area, max);
    return { kind: 'bits', area, index: bitIndex(off.value.word, off.value.bit), ...off.value };
  }
  throw new ApiError(400, 'invalid_value', `No such area: use ${[...WORD_AREAS, ...BIT_AREAS].join(', ')}`, [
    { path: 'area', code: 'invalid_value', params: { allowed: [...WORD_AREAS, ...BIT_AREAS] } },
  ]);
}

const outOfRange = (area: string, max: number) =>
  new ApiError(
    400,
    'address_out_of_range',
    `The address is beyond the ${area} area (0-${max})`,
    [{ path: 'address', code: 'address_out_of_range', params: { min: 0, max } }],
    { min: 0, max },
  );

/** The count of a read: 1 by default, at most MAX_WORDS / MAX_BITS, and inside the area. */
function countOf(t: Target, text: string | undefined): number {
  const max = t.kind === 'words' ? MAX_WORDS : MAX_BITS;
  const n = text === undefined ? 1 : /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= max))
    throw new ApiError(400, 'out_of_range', `count is 1-${max}`, [{ path: 'count', code: 'out_of_range', params: { min: 1, max } }], { min: 1, max });
  checkEnd(t, n);
  return n;
}

/** The last word (or bit) of a request must still lie in the area (spec §9). */
function checkEnd(t: Target, count: number): void {
  const areaMax = t.kind === 'words' ? AREA_MAX[t.area] : (AREA_MAX[BIT_AREA_WORDS[t.area]] + 1) * 16 - 1;
  const first = t.kind === 'words' ? t.start : t.index;
  if (first + count - 1 > areaMax) throw outOfRange(t.area, t.kind === 'words' ? areaMax : AREA_MAX[BIT_AREA_WORDS[t.area]]);
}

const wordValues = v.strictObject(
  {
    values: v.pipe(
      v.array(
        v.pipe(
          v.number(msg('type', { expected: 'integer' })),
          v.integer(msg('not_integer')),
          v.minValue(0, msg('out_of_range', { min: 0, max: 65535 })),
          v.maxValue(65535, msg('out_of_range', { min: 0, max: 65535 })),
        ),
        msg('type', { expected: 'array' }),
      ),
      v.minLength(1, msg('required')),
      v.maxLength(MAX_WORDS, msg('too_many', { max: MAX_WORDS })),
    ),
  },
  msg('type', { expected: 'object' }),
);

const bitValues = v.strictObject(
  {
    values: v.pipe(
      v.array(v.boolean(msg('type', { expected: 'boolean' })), msg('type', { expected: 'array' })),
      v.minLength(1, msg('required')),
      v.maxLength(MAX_BITS, msg('too_many', { max: MAX_BITS })),
    ),
  },
  msg('type', { expected: 'object' }),
);

async function valuesOf(c: Context, t: Target): Promise<number[] | boolean[]> {
  if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'invalid_json', 'Send the body as application/json');
  const text = await c.req.text();
  if (Buffer.byteLength(text) > REST_BODY_LIMIT) throw new ApiError(413, 'body_too_large', `The body exceeds ${REST_BODY_LIMIT} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
  }
  const parsed = v.safeParse(t.kind === 'words' ? wordValues : bitValues, body);
  if (!parsed.success) throw new ApiError(400, 'invalid_input', 'The values are not valid', toIssues(parsed.issues));
  return parsed.output.values;
}

/** The link of a path's interface: enabled, saved, not transparent; 404 / 409 otherwise. */
function linkOf(deps: PlcApiDeps, text: string) {
  const id = interfaceOf(text);
  if (id === undefined)
    throw new ApiError(404, 'not_found', `No such interface: use ${INTERFACE_IDS.join(', ')} or ${Object.values(INTERFACE_NAMES).join(', ')}`);
  const it = interfaceById(deps.store.get<Pew>('pew'), id);
  if (it?.service === TRANSPARENT) throw new ApiError(409, 'transparent_interface', 'A transparent interface carries no PLC requests of the unit');
  const link = deps.links.get(id);
  if (!it?.enabled || !link) throw new ApiError(409, 'interface_not_ready', 'Selected interface not enabled or settings not saved');
  return { id, link, name: INTERFACE_NAMES[id] };
}

/** A failed exchange: 502 with the link's reason (no_answer, plc_error, bad_reply, link_down). */
function linkFailure(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const reason = e instanceof PlcError ? e.reason : 'link_down';
  const message = e instanceof Error ? e.message : String(e);
  return new ApiError(502, 'link_failed', `The PLC request failed: ${message}`, undefined, {
    reason,
    ...(e instanceof PlcError && e.code !== undefined ? { code: e.code } : {}),
  });
}

const addressText = (t: Target) => (t.kind === 'words' ? String(t.start) : formatBitOffset(t.word, t.bit));

/** security.md REST-2: every word a write touches (a bit write: the words of its bits) lies in write_areas. */
function checkWritable(areas: readonly WriteArea[], t: Target, count: number): void {
  const area = t.kind === 'words' ? t.area : BIT_AREA_WORDS[t.area];
  const first = t.kind === 'words' ? t.start : t.word;
  const last = t.kind === 'words' ? t.start + count - 1 : Math.floor((t.index + count - 1) / 16);
  if (!mayWrite(areas, area, first, last))
    throw new ApiError(403, 'area_not_writable', `${t.area} ${addressText(t)} is not in the writable PLC areas (write_areas)`, undefined, {
      area: t.area,
      address: addressText(t),
    });
}

/** The API; `writable` are the PLC words a write may touch (pew_api write_areas; none: read-only). */
export function plcApi(deps: PlcApiDeps, writable: readonly WriteArea[]): Hono {
  const api = new Hono();
  api.get('/info', (c) => {
    const pew = deps.store.get<Pew>('pew');
    return c.json({
      product: 'communicator',
      api: 'v1',
      version: deps.versions.app,
      interfaces: pew.interfaces.map((it) => ({
        id: it.id,
        name: INTERFACE_NAMES[it.id as InterfaceId] ?? it.name,
        protocol: it.protocol,
        enabled: it.enabled,
        transparent: it.service === TRANSPARENT,
        state: deps.links.get(it.id)?.status().state ?? 'disabled',
      })),
      areas: { words: AREA_MAX, bits: Object.fromEntries(BIT_AREAS.map((a) => [a, AREA_MAX[BIT_AREA_WORDS[a]]])), readOnly: READ_ONLY_AREAS },
      limits: { words: MAX_WORDS, bits: MAX_BITS, body: REST_BODY_LIMIT },
    });
  });
  api.get('/plc/:interface/:area/:address', async (c) => {
    const t = targetOf(c.req.param('area'), c.req.param('address'));
    const count = countOf(t, c.req.query('count'));
    const { id, link, name } = linkOf(deps, c.req.param('interface'));
    let values: number[] | boolean[];
    try {
      values = t.kind === 'words' ? await link.readWords(t.area, t.start, count, 'rest') : await link.readBits(t.area, t.index, count, 'rest');
    } catch (e) {
      throw linkFailure(e);
    }
    return c.json({ interface: id, name, area: t.area, address: addressText(t), count, values });
  });
  api.put('/plc/:interface/:area/:address', async (c) => {
    const t = targetOf(c.req.param('area'), c.req.param('address'));
    if (READ_ONLY_AREAS.includes(t.area)) throw new ApiError(403, 'forbidden', `${t.area} holds the PLC's inputs and cannot be written`);
    const values = await valuesOf(c, t);
    checkEnd(t, values.length);
    checkWritable(writable, t, values.length);
    const { id, link, name } = linkOf(deps, c.req.param('interface'));
    try {
      if (t.kind === 'words') await link.writeWords(t.area, t.start, values as number[], 'rest');
      else await link.writeBits(t.area, t.index, values as boolean[], 'rest');
    } catch (e) {
      throw linkFailure(e);
    }
    return c.json({ interface: id, name, area: t.area, address: addressText(t), written: values.length });
  });
  return api;
}
