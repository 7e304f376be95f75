// The label, help and choice names of a settings field, from the field texts of the dictionary (the
// `fields` and `logger` parts, loaded with the settings pages): used by the pages' fields and the
// problem lines of a refused save, not by the first page.
import { logFieldText } from '../log/field-names.ts';
import { LL } from './translate.ts';

export interface Leaf {
  label?: () => string;
  help?: () => string;
  options?: Record<string, () => string>;
}

/** The dictionary entry of a section field; list indexes in the path are skipped (`threads.0.port`). */
function fieldLeaf(section: string, path: string): Leaf | undefined {
  let at: unknown = (LL.value.fields as unknown as Record<string, unknown>)[section];
  for (const seg of path.split('.')) if (!/^\d+$/.test(seg)) at = (at as Record<string, unknown> | undefined)?.[seg];
  return at as Leaf | undefined;
}

/** Label and help of a section field. */
export function fieldText(section: string, path: string): { label: string; help?: string } {
  if (section === 'pew_log') {
    const { leaf, where } = logFieldText(LL.value.logger, path);
    const name = leaf?.label ? leaf.label() : '';
    const help = leaf?.help ? leaf.help() : '';
    return { label: [where, name].filter(Boolean).join(' · ') || path, ...(help ? { help } : {}) };
  }
  const leaf = fieldLeaf(section, path);
  // the dictionary answers every unknown key with an empty text: fall back to the field's name
  const label = leaf?.label ? leaf.label() : '';
  const help = leaf?.help ? leaf.help() : '';
  return { label: label || path, ...(help ? { help } : {}) };
}

/** The labels of a choice field's values, by value, where the dictionary has them. */
export function fieldOptions(section: string, path: string): Record<string, string> {
  const options = fieldLeaf(section, path)?.options ?? {};
  return Object.fromEntries(Object.entries(options).map(([k, fn]) => [k, fn()]));
}
