// CSV export of variables (spec §2 /log "CSV import/export of variables"): the data points of a
// log file as a global variable list in the layout the import reads by default (spec §5 columns:
// name 2, FP address 4, data type 5, comment 7; one header line), so an exported list imports
// again into the same points: name, area, address and type (a STRING with its length). The other columns are left empty
// (the IEC address and the initial value are FPWIN's; the unit has no comment to give).
import { csvLine, type Separator } from './csv.ts';
import { typeName } from './data-types.ts';
import { formatFpAddress } from './fp-address.ts';

export const EXPORT_HEADER = ['Class', 'Identifier', 'IEC address', 'FP address', 'Type', 'Initial value', 'Comment'] as const;
const CLASS = 'VAR_GLOBAL';

/** The list as CSV text, CRLF line ends, UTF-8 when saved. */
export function exportVariables(
  records: readonly { name: string; area: number; reg_addr: string; type: number; str_len?: number }[],
  sep: Separator = ';',
): string {
  const lines = [csvLine(EXPORT_HEADER, sep)];
  for (const r of records) lines.push(csvLine([CLASS, r.name, '', formatFpAddress(r), typeName(r.type, r.area >= 4, r.str_len), '', ''], sep));
  return lines.map((l) => `${l}\r\n`).join('');
}

/** A file name for the export of a log file: `<log file name>_variables.csv`. */
export const exportFileName = (logFileName: string): string => `${logFileName || 'log'}_variables.csv`;
