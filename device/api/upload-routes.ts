// Uploads and certificates (spec §5 certificate names and extensions, file names, script extension;
// §7 upload, delete_cert; §8 "Failed to upload file(s)", "Failed to remove certificates"):
// `POST /config/upload?kind=…` takes the file as the raw body, streamed to disk under the cap of its
// kind (device/system/upload-files.ts); certificates and keys are checked before they are stored
// (device/system/certificates.ts); `GET /config/get_certs` lists what a section has stored.
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from 'hono';
import * as v from 'valibot';
import { toIssues } from '../model/section.ts';
import { HTTP_FILES_MAX } from '../model/sections/httpfiles.ts';
import { scriptFileSchema } from '../model/sections/scriptfile.ts';
import {
  CERT_SECTION_KEYS,
  type CertInfo,
  type CertSection,
  certKindOf,
  certNames,
  deleteCertRequest,
  UPLOAD_MAX,
  type UploadQuery,
  uploadQuery,
} from '../model/uploads.ts';
import { certPath } from '../system/cert-files.ts';
import { CertRefused, describeCert } from '../system/certificates.ts';
import { activeScriptName, scriptFolder } from '../system/script-files.ts';
import { receiveFile, TooLarge } from '../system/upload-files.ts';
import { isPlainName } from '../system/volume-files.ts';
import { readBody } from './body.ts';
import type { DaemonContext, Env } from './context.ts';
import { ApiError, invalid } from './errors.ts';
import { type RouteDef, route } from './route.ts';

/** The folder of the REST HTTP server's files (served by the REST engine, listed by get_http_content). */
export const HTTP_FOLDER = 'http';

const tooLarge = (c: Context, max: number, bytes?: number) => {
  // the rest of a refused body may still be on the wire: end the connection with the answer
  c.header('Connection', 'close');
  return new ApiError(413, 'file_too_large', `The file exceeds ${max} bytes`, undefined, bytes === undefined ? { max } : { max, bytes });
};

/** The uploaded script as text: UTF-8 and the script_file section's own rules (the editor's limits). */
function checkScript(bytes: Buffer): string {
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'invalid_input', 'The script is not UTF-8 text', [{ path: 'content', code: 'invalid_characters' }]);
  }
  const parsed = v.safeParse(scriptFileSchema, { content });
  if (!parsed.success) throw invalid(toIssues(parsed.issues));
  return content;
}

async function countOthers(dir: string, name: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => isPlainName(n) && n !== name).length;
}

async function upload(c: Context<Env>, ctx: DaemonContext, q: UploadQuery) {
  const max = UPLOAD_MAX[q.kind];
  const declared = Number(c.req.header('content-length') ?? NaN);
  if (declared > max) throw tooLarge(c, max, declared);
  const body = c.req.raw.body;
  const receive = async (target: string, check?: (b: Buffer) => void) => {
    try {
      return await receiveFile(body, target, max, check);
    } catch (e) {
      if (e instanceof TooLarge) throw tooLarge(c, max);
      if (e instanceof CertRefused)
        throw new ApiError(400, e.code, e.code === 'invalid_key' ? 'Not an unencrypted private key' : 'Not an X.509 certificate (PEM or DER)');
      throw e;
    }
  };
  if (q.kind === 'cert') {
    const kind = certKindOf(q.name)!;
    const ext = q.name.slice(q.name.indexOf('.') + 1);
    let info: Omit<CertInfo, 'section' | 'name'> | undefined;
    const { size } = await receive(certPath(ctx.dataDir, q.section, q.name), (b) => {
      info = describeCert(kind, ext, b, ctx.hw.clock.now());
    });
    return { kind: q.kind, section: q.section, name: q.name, ...info!, size };
  }
  if (q.kind === 'webfile') {
    const dir = join(ctx.dataDir, HTTP_FOLDER);
    if ((await countOthers(dir, q.name)) >= HTTP_FILES_MAX)
      throw new ApiError(400, 'too_many', `At most ${HTTP_FILES_MAX} files`, [{ path: 'name', code: 'too_many', params: { max: HTTP_FILES_MAX } }], {
        max: HTTP_FILES_MAX,
      });
    const { size } = await receive(join(dir, q.name));
    return { kind: q.kind, name: q.name, size };
  }
  let content = '';
  const { size } = await receive(join(scriptFolder(ctx.dataDir), q.name), (b) => {
    content = checkScript(b);
  });
  // the active script's text is the script_file section: an upload under its name replaces both
  if (q.name === activeScriptName(ctx.store)) {
    const saved = await ctx.store.save({ script_file: { content } });
    if (!saved.ok) throw invalid([]);
  }
  return { kind: q.kind, name: q.name, size };
}

async function certsOf(ctx: DaemonContext, section: CertSection): Promise<CertInfo[]> {
  const out: CertInfo[] = [];
  for (const name of certNames(section)) {
    const bytes = await readFile(certPath(ctx.dataDir, section, name)).catch(() => undefined);
    if (!bytes) continue;
    const ext = name.slice(name.indexOf('.') + 1);
    try {
      out.push({ section, name, ...describeCert(certKindOf(name)!, ext, bytes, ctx.hw.clock.now()) });
    } catch {
      out.push({ section, name, size: bytes.length, type: 'invalid' }); // put there by other means than an upload
    }
  }
  return out;
}

export const uploadRoutes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/config/upload',
    key: 'upload',
    access: 'admin',
    rawBody: true,
    handler: async (c, ctx) => {
      const parsed = v.safeParse(uploadQuery, c.req.query());
      if (!parsed.success) {
        c.header('Connection', 'close'); // the body is not read
        throw invalid(toIssues(parsed.issues));
      }
      const q = parsed.output;
      const result = await upload(c, ctx, q);
      await ctx.audit.write({
        action: q.kind === 'cert' ? 'cert_upload' : 'file_upload',
        user: c.get('session')!.user,
        source: c.get('source'),
        detail: { ...q, size: result.size },
      });
      ctx.log.info('file uploaded', { ...q, size: result.size });
      return c.json(result);
    },
  }),
  route({
    method: 'GET',
    path: '/config/get_certs',
    key: 'get_certs',
    access: 'user',
    handler: async (c, ctx) => {
      const asked = c.req.query('section');
      if (asked !== undefined && !(CERT_SECTION_KEYS as string[]).includes(asked))
        throw new ApiError(400, 'invalid_input', 'Unknown certificate section', [
          { path: 'section', code: 'invalid_value', params: { allowed: CERT_SECTION_KEYS } },
        ]);
      const sections = asked === undefined ? CERT_SECTION_KEYS : [asked as CertSection];
      return c.json({ certs: (await Promise.all(sections.map((s) => certsOf(ctx, s)))).flat() });
    },
  }),
  route({
    method: 'POST',
    path: '/config/delete_cert',
    key: 'delete_cert',
    access: 'admin',
    handler: async (c, ctx) => {
      const { section, name } = await readBody(c, deleteCertRequest);
      try {
        await unlink(certPath(ctx.dataDir, section, name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT')
          throw new ApiError(404, 'file_not_found', 'No such certificate', [{ path: 'name', code: 'file_not_found' }]);
        throw e;
      }
      await ctx.audit.write({ action: 'cert_delete', user: c.get('session')!.user, source: c.get('source'), detail: { section, name } });
      return c.json({ deleted: { section, name } });
    },
  }),
];
