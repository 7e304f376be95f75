// The calls of the /rest page (spec §2 /rest, §7 get_http_content, delete_user_webfiles): the
// uploaded HTTP server files and the state of the REST port. Every answer is checked against its
// schema, so a reply of another daemon version shows as "not available" instead of breaking the page.
import * as v from 'valibot';
import { ApiFailure, get, post } from './client.ts';

export const HTTP_CONTENT_PATH = '/config/get_http_content';
export const DELETE_WEBFILES_PATH = '/config/delete_user_webfiles';
export const REST_STATUS_PATH = '/config/rest_status';

const fileSchema = v.object({ name: v.string(), size: v.pipe(v.number(), v.minValue(0)) });
const listSchema = v.object({ files: v.array(fileSchema) });
const deletedSchema = v.object({ deleted: v.array(v.string()), files: v.array(fileSchema) });
export const restStatusSchema = v.object({
  enabled: v.boolean(),
  listening: v.boolean(),
  port: v.number(),
  tls: v.boolean(),
  detail: v.string(),
  faults: v.number(),
});

export type HttpFileEntry = v.InferOutput<typeof fileSchema>;
export type RestStatus = v.InferOutput<typeof restStatusSchema>;

function checked<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, answer);
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}

/** The uploaded HTTP files, sorted by name as the daemon sends them. */
export async function fetchHttpFiles(): Promise<HttpFileEntry[]> {
  return checked(listSchema, await get<unknown>(HTTP_CONTENT_PATH)).files;
}

/** Deletes files by name; answers the names deleted and the files left. Nothing is deleted when one name is refused. */
export async function deleteHttpFiles(names: readonly string[]): Promise<{ deleted: string[]; files: HttpFileEntry[] }> {
  return checked(deletedSchema, await post<unknown>(DELETE_WEBFILES_PATH, { names }));
}

export async function fetchRestStatus(): Promise<RestStatus> {
  return checked(restStatusSchema, await get<unknown>(REST_STATUS_PATH));
}
