// The one answer that streams an opened file (log, format and script files, the REST port's HTTP
// files). The handle is closed on every path: at the end of the stream, on a read error, when the
// client goes away (the server cancels the body), for an empty file, and for HEAD, which Hono
// answers with the GET handler and then drops the body unread (a handle in a dropped body is left
// to the garbage collector, which is a leak and can abort the process: docs/development.md).
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context } from 'hono';

/** 200 with the first `size` bytes of `handle` (its size when opened) as the body; `handle` is the response's to close. */
export async function fileResponse(c: Context, handle: FileHandle, size: number, headers: Record<string, string>): Promise<Response> {
  if (size === 0 || c.req.method === 'HEAD') {
    await handle.close();
    return c.body(null, 200, headers);
  }
  return c.body(Readable.toWeb(handle.createReadStream({ start: 0, end: size - 1 })) as ReadableStream<Uint8Array>, 200, headers);
}
