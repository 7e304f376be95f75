// The unit's HTTP server (spec §3 REST pew_api `http_server`): the files uploaded for it
// (`<dataDir>/http/`, uploaded with POST /config/upload?kind=webfile) served by name on the REST
// port. One plain name per request, resolved inside the folder (security.md DL-1,
// device/system/volume-files.ts); no directory listing: `/` is index.html when there is one.

import { join } from 'node:path';
import type { Context } from 'hono';
import { ApiError } from '../api/errors.ts';
import { fileResponse } from '../api/file-response.ts';
import { contentType } from '../api/web-files.ts';
import { HTTP_FILE_RE, HTTP_NAME_MAX } from '../model/sections/httpfiles.ts';
import { openInside, RefusedName } from '../system/volume-files.ts';

/** where the uploaded HTTP files live */
export const HTTP_FOLDER = 'http';
export const httpFolder = (dataDir: string) => join(dataDir, HTTP_FOLDER);

const INDEX = 'index.html';

/** The file name a request path names, or undefined when it is not one plain uploaded-file name. */
export function fileNameOf(rawPath: string): string | undefined {
  const encoded = rawPath.replace(/^\//, '');
  if (encoded === '') return INDEX;
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  return name.length <= HTTP_NAME_MAX && HTTP_FILE_RE.test(name) ? name : undefined;
}

/** Streams the uploaded file the path names: 400 `invalid_file_name`, 404 `file_not_found`. */
export async function serveHttpFile(c: Context, dataDir: string): Promise<Response> {
  // the path as sent (percent escapes kept): an encoded slash must not become a separator
  const raw = new URL(c.req.url).pathname;
  const name = fileNameOf(raw);
  if (name === undefined) throw new ApiError(400, 'invalid_file_name', 'Not a file name of this server');
  let opened: Awaited<ReturnType<typeof openInside>>;
  try {
    opened = await openInside(httpFolder(dataDir), name);
  } catch (e) {
    if (!(e instanceof RefusedName)) throw e;
    if (e.reason === 'missing') throw new ApiError(404, 'file_not_found', 'No such file');
    throw new ApiError(400, 'invalid_file_name', 'Not a file name of this server');
  }
  const { handle, size } = opened;
  const headers = { 'Content-Type': contentType(name), 'Content-Length': String(size), 'Cache-Control': 'no-cache' };
  return fileResponse(c, handle, size, headers);
}
