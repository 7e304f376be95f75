// Where a pew_log field's name comes from: the /log page's dictionary (general, log file and data
// point fields), with its place in front: "Log file 2 · data point 5" (both counted from 1).

import type { Leaf } from '../i18n/field-text.ts';
import type { TranslationFunctions } from '../i18n/i18n-types.ts';

export function logFieldText(t: TranslationFunctions['logger'], path: string): { leaf: Leaf | undefined; where: string } {
  const [top, file, inFile, point, inPoint] = path.split('.');
  const pick = (dict: object, key: string | undefined) => (key ? (dict as Record<string, Leaf | undefined>)[key] : undefined);
  if (top !== 'log_def' || file === undefined) return { leaf: pick(t.generalFields, top), where: '' };
  const fileNo = Number(file) + 1;
  if (inFile !== 'records' || point === undefined) return { leaf: pick(t.fileFields, inFile), where: t.where.file({ file: fileNo }) };
  return { leaf: pick(t.pointFields, inPoint), where: t.where.point({ file: fileNo, point: Number(point) + 1 }) };
}
