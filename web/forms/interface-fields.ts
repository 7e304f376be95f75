// Which fields of a COM interface apply to it (spec §3 "COM (pew)"): used by /com and by the
// interface parameters step of the wizard, so both show the same fields.
import { ETHERNET_ID, INTERNAL_ID, type InterfaceId, RS485_CAPABLE_ID } from '../../device/model/plc.ts';

const SERIAL = ['autobaud', 'baudrate', 'bits', 'parity', 'stopbits', 'flow'];

/** Units shown after an interface field. */
export const INTERFACE_UNITS: Record<string, string> = { timeout: 'ms', wait: 'ms' };

/**
 * The fields of an interface that apply to it: the serial ones on COM1-COM3 (the RS232/RS485 mode
 * only on COM2), the PLC's address and the offset on COM4 (Ethernet); INTERNAL is only switched on
 * or off, its protocol is always Modbus.
 */
export function interfaceFields(id: InterfaceId): string[] {
  if (id === INTERNAL_ID) return ['enabled'];
  if (id === ETHERNET_ID) return ['enabled', 'service', 'protocol', 'timeout', 'wait', 'ip_port'];
  return ['enabled', 'service', ...(id === RS485_CAPABLE_ID ? ['mode'] : []), 'protocol', ...SERIAL, 'timeout', 'wait'];
}
