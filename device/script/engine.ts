// The script of the unit (spec §3 pew_script and script_file; the language of the default script,
// device/model/script; docs/script.md): follows the saved pew_script, script_file, pew (whose
// service control interface carries the PLC reads, writes and relays) and pew_log (whose storage
// volume holds the script's CSV files). With enable_script on, a script without errors runs
// (run.ts); a script with errors does not run: its errors are in the status (the API refuses to
// save such a script while the script is enabled, script-check.ts).

import { type Clock, type Hw, VOLUME_IDS } from '../../hw/types.ts';
import type { Links } from '../com/links.ts';
import type { ConfigStore } from '../config/store.ts';
import type { FtpSend } from '../ftp/engine.ts';
import { parseScript } from '../model/script/parse.ts';
import type { Log } from '../model/sections/log.ts';
import type { Pew } from '../model/sections/pew.ts';
import type { Script } from '../model/sections/script.ts';
import type { ScriptFile } from '../model/sections/scriptfile.ts';
import type { ServiceEngine } from '../service-runtime/queued-engine.ts';
import { followRuns } from '../service-runtime/runs.ts';
import type { Logger } from '../system/log.ts';
import { ScriptBook } from './book.ts';
import { ScriptCsv } from './csv.ts';
import { ScriptMemory } from './memory.ts';
import { ScriptRun } from './run.ts';

export const SCRIPT_TICK_MS = 1000;

export interface ScriptDeps {
  store: ConfigStore;
  links: Links;
  hw: Hw;
  log: Logger;
  clock?: Clock;
  ftp?: FtpSend;
  /** how often due cycles are looked for and the relays are read (default 1 s) */
  tickMs?: number;
}

/** the engine shape every service shares (service-runtime/queued-engine.ts) */
export type ScriptEngine = ServiceEngine;

export async function startScript(deps: ScriptDeps): Promise<ScriptEngine> {
  const clock = deps.clock ?? deps.hw.clock;
  const book = new ScriptBook(clock);
  let enabled = false;
  const runs = await followRuns(deps.store, ['pew_script', 'script_file', 'pew', 'pew_log'], deps.log, () => {
    enabled = deps.store.get<Script>('pew_script').enable_script;
    const parsed = parseScript(deps.store.get<ScriptFile>('script_file').content);
    book.errors = parsed.errors;
    book.program(parsed.program.sections);
    if (!enabled) {
      book.set('off');
      return undefined;
    }
    if (parsed.errors.length > 0) {
      book.set('error');
      const first = parsed.errors[0]!;
      deps.log.error('script: the script has errors and does not run', {
        errors: parsed.errors.length,
        line: first.line,
        column: first.column,
        code: first.code,
      });
      return undefined;
    }
    const storage = VOLUME_IDS[deps.store.get<Log>('pew_log').storage] ?? 'internal';
    const run = new ScriptRun(
      { clock, log: deps.log, ftp: deps.ftp, tickMs: deps.tickMs ?? SCRIPT_TICK_MS },
      parsed.program,
      new ScriptMemory(deps.links, deps.store.get<Pew>('pew').interface_plc),
      new ScriptCsv(() => deps.hw.volumes(), storage, undefined, deps.log),
      book,
    );
    run.start();
    return run;
  });
  return {
    settled: () => runs.settled(),
    status: () => book.status(enabled),
    close: () => runs.close(),
  };
}
