// The registry of configuration sections (spec §3 names and indexes).
import type { SectionDef } from './section.ts';
import { pew } from './sections/pew.ts';
import { pew_mqtt } from './sections/mqtt.ts';
import { pew_redirect } from './sections/redirect.ts';

/** Sections saved through `/config/<key>`, in the order of their spec index. */
export const CONFIG_SECTIONS: readonly SectionDef[] = [pew, pew_mqtt, pew_redirect].sort((a, b) => a.index - b.index);

export const sectionByKey = (key: string): SectionDef | undefined => CONFIG_SECTIONS.find((d) => d.key === key);
