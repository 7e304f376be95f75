// What the console uses of the configuration model, in one chunk (see model.ts).
export { CONFIG_SECTIONS, sectionByKey } from '../../device/model/index.ts';
export { crossSectionIssues } from '../../device/model/rules.ts';
export { defaultsOf, staleMaskIssues, validateSection } from '../../device/model/section.ts';
