// Stable error codes shared by the daemon and the console. The console turns a code and its
// params into the spec's message (§5, §8) in the user's language; the server never sends prose
// that the console has to parse.

export const ERROR_CODES = [
  // field level (spec §5)
  'required', // "A setting must not be empty"
  'type', // wrong JSON type (params: expected)
  'not_integer',
  'out_of_range', // "value out of range (the range is shown)" (params: min, max)
  'too_long', // text limits of §9 (params: max)
  'too_short', // a secret below its minimum length, e.g. the REST API key (params: min)
  'too_many', // "Max entries reached" (params: max)
  'invalid_value', // not one of an enumeration (params: allowed)
  'invalid_characters', // "Invalid characters are rejected"
  'must_start_with_letter', // "A name must start with a letter"
  'invalid_ip', // "invalid IP address"
  'invalid_host',
  'ip_range', // "The IP end must be greater than the IP start"
  'invalid_file_name', // characters of a file name (spec §5)
  'file_extension', // a file name's extension is not one of the allowed (params: allowed)
  'file_base_name', // the name before the extension is not one of the allowed (params: allowed)
  'invalid_db_name',
  'invalid_email',
  'invalid_bit_address',
  'invalid_write_area', // a write_areas entry that is not an area, a first word and optionally a last (params: entry)
  'input_not_writable', // a write to the PLC's inputs X (params: entry)
  'invalid_control_flag', // "Control flag not valid"
  'address_out_of_range', // (params: min, max)
  'password_policy', // "Password does not match requirements"
  'password_required', // "missing password": a stored password is not kept for a changed server, port or proxy (security.md SEC-2; params: fields)
  'port_unallowed', // spec §5 unallowed TCP ports (params: ports)
  'port_system', // "A port already used by the system is rejected" (params: port)
  'port_console', // the console itself (HTTP or HTTPS) listens on the port (params: port)
  'port_conflict', // two settings listen on the same port (params: port, other)
  'port_modbus_only', // spec §9 Modbus 502: only a Modbus/TCP gateway thread listens below 1025 (params: port, min, max)
  'start_after_end', // "Start address greater than end address"
  'addresses_overlap', // 'addresses overlap' (params: other)
  'areas_mismatch', // "Memory areas must match"
  'iec_t2_t1', // spec §5: t2 < t1
  'iec_t1_t3', // spec §5: t1 < t3
  'iec_w_k', // spec §5: w <= 2/3 of k
  'iec_monitor_depth', // the IEC 104 monitor ring holds its write index and one 5-word record at least (params: min)
  'tag_pair', // spec §5 tag pair: only one of tag name and tag value given, so the tag is ignored (a note, not a refusal)
  'transparent_interface', // a transparent COM interface cannot control services, log or insert
  'interface_disabled',
  'duplicate', // two entries with the same id/name
  'name_reserved', // a data point named as a column the unit writes itself (params: name)
  'header_name_invalid', // an HTTP header name that is not an RFC 7230 token (letters, digits and !#$%&'*+-.^_`|~)
  'header_value_invalid', // an HTTP header value with a line break, NUL or another control character, or a character beyond Latin-1
  'header_reserved', // an HTTP header the unit sets itself (params: name)
  'script_invalid', // an enabled script whose text has errors (params: line, column, script: the parser's code and its params; model/script)
  'unknown_key', // a key the schema does not know (security.md VAL-1)
  // request level
  'invalid_json',
  'body_too_large',
  'invalid_input',
  'not_found',
  'file_not_found', // a named file is not in its folder (log files, format files)
  'file_too_large', // "Failed to upload file(s)": over the cap of its kind (params: max, bytes)
  'invalid_certificate', // an uploaded certificate that is neither PEM nor DER X.509 (nothing stored)
  'invalid_key', // an uploaded key that is not an unencrypted private key (nothing stored)
  'method_not_allowed',
  'unauthenticated',
  'forbidden',
  'csrf',
  'wrong_credentials',
  'host_not_allowed', // the Host header does not name this unit (security.md HOST-1: DNS rebinding)
  'api_key_required', // a REST API write without the API key that is set
  'wrong_api_key', // a REST API write with another key than the one set
  'writes_off', // a REST API write while no API key is set and keyless writes are not allowed (security.md REST-1)
  'area_not_writable', // a REST API write outside the words of write_areas (security.md REST-2; params: area, address)
  'origin_not_allowed', // a state-changing console request whose Origin is not the console's own (security.md HDR-2)
  'locked',
  'login_busy', // too many password checks at once (security.md AUTH-6; params: retryAfterSeconds)
  'too_many_connections', // one address holds too many open connections to the console (params: max)
  'already_set_up',
  'setup_required',
  'user_exists', // users page: a user of that name exists already
  'last_admin', // users page: the last administrator cannot be removed
  'own_account', // users page: nobody removes their own account
  'wrong_current_password', // own password change: the current password is not correct
  'interface_not_ready', // spec §8 "Selected interface not enabled or settings not saved"
  'tcp_port_closed', // spec §8 "TCP port of selected COM port not open" (params: address)
  'link_failed', // a PLC link could not carry a request (params: reason)
  'rest_disabled', // the REST test needs api_enable saved (spec §7 /apitest)
  'db_server_missing', // SQL/NoSQL test: the saved settings name no server
  'db_not_influx', // pew_getinflux: the saved NoSQL settings are not of the InfluxDB type
  'db_peer_failed', // pew_getinflux: the server could not be asked (params: reason, message)
  'service_not_configured', // a connection test whose saved settings name no server (MQTT, FTP, HTTP, e-mail)
  'certificate_missing', // a connection test needs a certificate file that is not on the unit (params: name)
  'backup_failed', // spec §8 "Failed to retrieve the backup file" (params: reason)
  'backup_wrong_password', // spec §8 "The password is not correct" (restore)
  'restore_failed', // spec §8 "Failed to restore the settings" (params: reason, see model/backup.ts RESTORE_REASONS)
  'save_failed',
  'update_refused', // a firmware update refused before anything changed (params.reason: device/model/firmware.ts UPDATE_REFUSALS)
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export type IssueParams = Record<string, string | number | boolean | readonly (string | number)[]>;

/** One problem at one place of a section, as the API reports it. */
export interface Issue {
  /** dotted path inside the section, e.g. `thread.0.mapping.2.register_area_end`; '' for the whole section */
  path: string;
  code: ErrorCode;
  params?: IssueParams;
}

const SEP = '|';

/** Encodes a code and its params into a valibot message, decoded again by `decodeMessage`. */
export function msg(code: ErrorCode, params?: IssueParams): string {
  return params ? code + SEP + JSON.stringify(params) : code;
}

export function decodeMessage(message: string): { code: ErrorCode; params?: IssueParams } {
  const at = message.indexOf(SEP);
  const code = (at < 0 ? message : message.slice(0, at)) as ErrorCode;
  if (!(ERROR_CODES as readonly string[]).includes(code)) return { code: 'invalid_input' };
  if (at < 0) return { code };
  return { code, params: JSON.parse(message.slice(at + 1)) as IssueParams };
}

export function issue(path: string, code: ErrorCode, params?: IssueParams): Issue {
  return params ? { path, code, params } : { path, code };
}
