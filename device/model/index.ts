// The registry of configuration sections (spec §3 names and indexes).
import type { SectionDef } from './section.ts';
import { pew_email } from './sections/email.ts';
import { pew_ftpc } from './sections/ftpc.ts';
import { pew_httpc } from './sections/httpc.ts';
import { restHttpFiles } from './sections/httpfiles.ts';
import { pew_60870 } from './sections/iec.ts';
import { pew_log } from './sections/log.ts';
import { logcfg } from './sections/logcfg.ts';
import { pew_mqtt } from './sections/mqtt.ts';
import { pew_nosql } from './sections/nosql.ts';
import { pew } from './sections/pew.ts';
import { pew_redirect } from './sections/redirect.ts';
import { pew_api } from './sections/rest.ts';
import { pew_rtc } from './sections/rtc.ts';
import { pew_script } from './sections/script.ts';
import { script_file } from './sections/scriptfile.ts';
import { pew_sql } from './sections/sql.ts';
import { pew_tls } from './sections/tls.ts';

const byIndex = (a: SectionDef, b: SectionDef) => a.index - b.index;

/** Sections saved through `/config/<key>` (one file each), in the order of their spec index. */
export const CONFIG_SECTIONS: readonly SectionDef[] = [
  pew,
  pew_mqtt,
  pew_redirect,
  pew_ftpc,
  pew_rtc,
  pew_httpc,
  pew_email,
  pew_api,
  pew_tls,
  pew_60870,
  pew_sql,
  pew_script,
  script_file,
  pew_log,
  pew_nosql,
].sort(byIndex);

/** Lists the unit derives from its folders (log config files 16, uploaded HTTP files 17). */
export const LIST_SECTIONS: readonly SectionDef[] = [logcfg, restHttpFiles];

/** Every section of spec §3, com 0 … nosql 18. */
export const ALL_SECTIONS: readonly SectionDef[] = [...CONFIG_SECTIONS, ...LIST_SECTIONS].sort(byIndex);

export const sectionByKey = (key: string): SectionDef | undefined => CONFIG_SECTIONS.find((d) => d.key === key);
