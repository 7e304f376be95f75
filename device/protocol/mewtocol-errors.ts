// MEWTOCOL-COM error codes (the two digits after `!`), as data: mewtocol.md §3. The English text
// is for logs; `key` is stable so the console can translate it and tests can match on it.

export interface MewErrorInfo {
  code: number;
  key: string;
  text: string;
}

const TABLE: readonly MewErrorInfo[] = [
  { code: 21, key: 'nack', text: 'NACK: link-level negative acknowledge' },
  { code: 22, key: 'wack', text: 'WACK: link busy' },
  { code: 23, key: 'station_overlap', text: 'Station number overlap' },
  { code: 24, key: 'transmission_error', text: 'Transmission error' },
  { code: 25, key: 'hardware_error', text: 'Hardware error (link unit)' },
  { code: 26, key: 'station_setting_error', text: 'Station number setting error' },
  { code: 27, key: 'frame_over', text: 'Frame over: command or reply longer than the frame limit' },
  { code: 28, key: 'no_response', text: 'No response' },
  { code: 29, key: 'buffer_closed', text: 'Buffer closed' },
  { code: 30, key: 'timeout', text: 'Time-out' },
  { code: 32, key: 'transmission_impossible', text: 'Transmission impossible' },
  { code: 33, key: 'communication_stop', text: 'Communication stop' },
  { code: 36, key: 'no_local_station', text: 'No local station' },
  { code: 38, key: 'other_communication_error', text: 'Other communication error' },
  { code: 40, key: 'bcc_error', text: 'BCC error: the check code does not match' },
  { code: 41, key: 'format_error', text: 'Format error: the frame does not match the command format' },
  { code: 42, key: 'not_supported', text: 'Not supported: unknown command or not supported by this unit' },
  { code: 43, key: 'procedure_error', text: 'Procedure error: multi-frame procedure violated' },
  { code: 50, key: 'link_setting_error', text: 'Link setting error' },
  { code: 51, key: 'simultaneous_operation_error', text: 'Simultaneous operation error' },
  { code: 52, key: 'sending_disabled', text: 'Sending disabled' },
  { code: 53, key: 'busy', text: 'Busy' },
  { code: 60, key: 'parameter_error', text: 'Parameter error: wrong area code or address out of range' },
  { code: 61, key: 'data_error', text: 'Data error: bad address digits, start after end or bad write data' },
  { code: 62, key: 'registration_error', text: 'Registration error: too many registrations or none' },
  { code: 63, key: 'mode_error', text: 'Mode error: command not allowed in the current RUN/PROG mode' },
  { code: 65, key: 'protect_error', text: 'Protect error' },
  { code: 66, key: 'address_error', text: 'Address error' },
  { code: 67, key: 'no_data', text: 'No data / missing data' },
  { code: 72, key: 'timeout', text: 'Time-out' },
  { code: 73, key: 'timeout', text: 'Time-out' },
];

export const MEW_ERRORS: ReadonlyMap<number, MewErrorInfo> = new Map(TABLE.map((e) => [e.code, e]));

/** The codes a simulated PLC answers for request problems (mewtocol.md §3). */
export const MEW_ERR = { BCC: 40, FORMAT: 41, NOT_SUPPORTED: 42, PROCEDURE: 43, PARAMETER: 60, DATA: 61, FRAME_OVER: 27 } as const;

/** Text and key of an error code; codes missing from the table give key `unknown_error`. */
export function mewErrorInfo(code: number): MewErrorInfo {
  return MEW_ERRORS.get(code) ?? { code, key: 'unknown_error', text: `Unknown error code ${String(code).padStart(2, '0')}` };
}
