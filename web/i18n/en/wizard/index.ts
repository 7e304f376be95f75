// English: the PLC connection wizard (/wizard_com), loaded with it.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_wizard = {
  progress: 'Steps',
  stepTitle: 'Step {n} of {count}: {name}',
  steps: {
    mode: 'Mode',
    iface: 'Interface',
    params: 'Interface parameters',
    tcp: 'TCP listening port',
    modbus: 'Modbus listening port',
    gateway: 'Modbus gateway',
    rules: 'Restriction rules',
    finish: 'Finish',
  },
  notes: {
    mode: 'Simple sets up one interface with one TCP port. Advanced adds the Modbus/TCP gateway and DT-area restrictions.',
    iface: 'The interface the PLC is connected to.',
    params: 'The settings of this interface, as on the COM page.',
    tcp: 'Clients reach the PLC through this port (default 9094).',
    modbus: 'The port of the Modbus/TCP gateway (Modbus standard 502); used when you choose a gateway in the next step.',
    gateway: 'A second port that translates Modbus/TCP for the PLC, through the same or another interface.',
    rules: 'Which PLC data the clients may read or write.',
    finish: 'Check the settings. Finish saves the COM and the Port settings together.',
  },
  modes: { simple: 'Simple', advanced: 'Advanced' },
  modeHints: {
    simple: 'One interface and one TCP port; every PLC area, DT included, is allowed or not as a whole.',
    advanced: 'Also a Modbus/TCP gateway and restrictions of DT address ranges.',
  },
  isEnabled: 'enabled, {protocol}',
  isDisabled: 'not enabled',
  enables: 'The wizard enables {name}.',
  internal: "INTERNAL has no further parameters: the unit's own memory, always Modbus.",
  tcpPort: 'TCP listening port',
  modbusPort: 'Modbus listening port',
  gateways: { none: 'No gateway', same: 'Same interface', other: 'New interface' },
  gatewayHints: {
    none: 'Only the TCP port.',
    same: 'The gateway also uses {name}.',
    other: 'The gateway uses another interface, enabled with its parameters below.',
  },
  gatewayIface: 'Gateway interface',
  layout:
    'Modbus layout on port {port}: holding registers 0 – 65535 are DT0 – DT65535; coils from 0 are the Y relays (coil 16·n + b is bit b of WY n); coils from {r} are the R relays of WR in the same way.',
  rules: { read: 'Allow all read', write: 'Allow all write', individual: 'Individual' },
  ruleHints: {
    read: 'Every PLC area can be read, nothing written.',
    write: 'Every PLC area can be read and written.',
    individual: 'Only the areas you enter (no DT area in simple mode).',
    individualDt: 'Only the areas you enter, the DT area included.',
  },
  entry: '{area} {start} – {end}: {rights}',
  gatewayWhole: 'The gateway grants the same rights on DT0 – DT65535 (holding registers) and on the WY and WR relays (coils from 0 and from {r}).',
  gatewayIndividual:
    'On the gateway, DT entries are holding registers at their own address (up to DT65535), WY entries coils from 0 and WR entries coils from {r} (16 per word); other areas cannot be reached over Modbus.',
  summary: { mode: 'Mode', iface: 'Interface', gateway: 'Modbus gateway', rules: 'Restrictions', entries: 'Individual (entries: {count})' },
  overwrite: 'Finishing overwrites the current COM and Port settings.',
  failed: 'Something went wrong.',
  back: 'Back',
  continue: 'Continue',
  finish: 'Finish',
  cancel: 'Cancel',
  cancelTitle: 'Leave the wizard',
  cancelText: 'Your entries in the wizard are dropped; the settings stay as they are.',
  discard: 'Drop the entries',
  stay: 'Stay in the wizard',
} satisfies BaseTranslation;

export default en_wizard;
