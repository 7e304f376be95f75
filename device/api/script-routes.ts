// The script file (spec §2 /script, §3 Script, §7 get_defscript, writefile, download/pew_script.cfg):
// the default script, writing the editor's text into the active script file, the script files of
// the folder (uploads land there too, see upload-routes.ts) and their downloads. Every name from a
// request is resolved inside the script folder (security.md DL-1).

import { DEFAULT_SCRIPT_FILE } from '../model/sections/script.ts';
import { DEFAULT_SCRIPT } from '../system/default-script.ts';
import { activeScriptName, scriptFolder } from '../system/script-files.ts';
import { listFolder } from '../system/volume-files.ts';
import { CONFIG_JSON_LIMIT, readJson } from './body.ts';
import { ApiError, flattenIssues, invalid } from './errors.ts';
import { download } from './logfile-routes.ts';
import { type RouteDef, route } from './route.ts';

const SCRIPT_TYPE = 'text/plain; charset=utf-8';

export const scriptRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/config/get_defscript',
    key: 'get_defscript',
    access: 'user',
    handler: (c) => c.json({ name: DEFAULT_SCRIPT_FILE, content: DEFAULT_SCRIPT }),
  }),
  route({
    method: 'GET',
    path: '/config/get_scripts',
    key: 'get_scripts',
    access: 'user',
    handler: async (c, ctx) => {
      // the folder as the last save left it: a save answers before its script text is in the active
      // file (startScriptFiles writes it after), and a list asked at once missed a new file (a failed
      // write is logged there; the list still answers)
      await ctx.scripts.settled().catch(() => undefined);
      return c.json({ active: activeScriptName(ctx.store), files: await listFolder(scriptFolder(ctx.dataDir)) });
    },
  }),
  route({
    method: 'POST',
    path: '/config/writefile',
    key: 'writefile',
    access: 'admin',
    // the script_file section: a script of spec §9's length, JSON-escaped, can exceed 64 KiB
    jsonLimit: CONFIG_JSON_LIMIT,
    handler: async (c, ctx) => {
      // saved as the whole script_file section: its schema's limits and codes, the same as the
      // editor's, and a body of another shape (`[]`, `{}`) refused rather than saved as an empty script
      const saved = await ctx.store.save({ script_file: await readJson(c) });
      if (!saved.ok) throw invalid(flattenIssues(saved.issues));
      const content = ctx.store.get<{ content: string }>('script_file').content;
      try {
        await ctx.scripts.settled();
      } catch (e) {
        ctx.log.error('writing the script file failed', { error: String(e) });
        throw new ApiError(500, 'save_failed', 'The script file could not be written');
      }
      const name = activeScriptName(ctx.store);
      await ctx.audit.write({ action: 'script_write', user: c.get('session')!.user, source: c.get('source'), detail: { name } });
      return c.json({ name, size: Buffer.byteLength(content, 'utf8') });
    },
  }),
  // both matched before the planned catch-all GET /download/* (app.ts keeps this order)
  route({
    method: 'GET',
    path: '/download/pew_script.cfg',
    key: 'download/pew_script.cfg',
    access: 'user',
    // the active script, under its own name in Content-Disposition
    handler: (c, ctx) => download(c, scriptFolder(ctx.dataDir), activeScriptName(ctx.store), SCRIPT_TYPE),
  }),
  route({
    method: 'GET',
    path: '/download/scripts/:name',
    key: 'download/',
    access: 'user',
    handler: (c, ctx) => download(c, scriptFolder(ctx.dataDir), c.req.param('name'), SCRIPT_TYPE),
  }),
];
