// The script files of the unit (spec §3 Script: pew_script.script_file names the active script,
// script_file holds its text; §5 script extension .cfg; §7 writefile, download/pew_script.cfg):
// `<dataDir>/scripts/<name>.cfg`. Uploaded scripts land in the same folder. The saved script_file
// section is the text of the active script: after every save of it the text is written to the file
// that the saved pew_script names, so the page's save and writefile leave the same file behind.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import { type Follower, followSection } from '../config/follow.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Script } from '../model/sections/script.ts';
import { DEFAULT_SCRIPT_FILE } from '../model/sections/script.ts';
import type { ScriptFile } from '../model/sections/scriptfile.ts';
import type { Logger } from './log.ts';

export const SCRIPT_FOLDER = 'scripts';

export const scriptFolder = (dataDir: string): string => join(dataDir, SCRIPT_FOLDER);

/** The name of the active script: the saved pew_script's file, its default when the field is empty. */
export const activeScriptName = (store: ConfigStore): string => (store.read('pew_script') as Script).script_file || DEFAULT_SCRIPT_FILE;

export interface ScriptFiles {
  /** resolves when the last saved script text is in its file; rejects when that write failed */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Follows script_file: its saved text goes into the active script file. */
export async function startScriptFiles(store: ConfigStore, dataDir: string, log: Logger): Promise<ScriptFiles> {
  let first = true;
  let failure: unknown;
  const apply = async () => {
    const start = first;
    first = false;
    const content = (store.read('script_file') as ScriptFile).content;
    const file = join(scriptFolder(dataDir), activeScriptName(store));
    const current = await readFile(file, 'utf8').catch(() => undefined);
    // at start an empty text does not create a file nobody wrote; a later save always writes
    if (current === content || (start && current === undefined && content === '')) return;
    try {
      await writeFileAtomic(file, content);
      failure = undefined;
    } catch (e) {
      failure = e;
      throw e;
    }
  };
  const follower: Follower = await followSection(store, 'script_file', log, apply);
  return {
    settled: async () => {
      await follower.settled();
      if (failure !== undefined) throw failure;
    },
    close: () => follower.stop(),
  };
}
