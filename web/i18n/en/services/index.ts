// English: the system services list on /info, loaded with the services part.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_services = {
  intro: "Switch the unit's system services on or off and save. Each change is recorded in the audit log.",
  readOnly: 'Only the administrator can change the services.',
  save: 'Save services',
  saved: 'Services saved.',
  saveFailed: 'Failed to save the services: {reason}',
  failedService: 'The unit refused to change {service}.',
  changed: 'not saved',
  consoleCert: {
    title: 'Console certificate (HTTPS)',
    off: 'The console is served over plain HTTP (the simulator’s default).',
    source: 'Source',
    generated: 'generated on this unit (self-signed)',
    uploaded: 'uploaded',
    fingerprint: 'SHA-256 fingerprint',
    names: 'Names',
    valid: 'Valid',
    refused: 'The uploaded certificate is not used: {reason}',
    note: 'Compare the fingerprint with the one your browser shows before you trust the certificate. Upload a certificate and its key to replace it; remove them to return to the generated one.',
  },
  desc: {
    avahi_daemon: 'Announces the unit on the local network (mDNS/Zeroconf) so it can be found by name.',
    x11vnc: "Remote view of the unit's screen over VNC.",
    snmpd: 'SNMP agent for network monitoring; v1/v2c community strings travel in clear text.',
    cloud: 'Remote access (VPN) through the cloud service.',
    sshd: 'Secure shell for maintenance from the network.',
    ntpd: "Sets the unit's clock from time servers (NTP).",
    firewall: 'Blocks connections to ports that no setting opened.',
    router: "Routes traffic between the unit's network interfaces.",
    bridge: 'Joins two network interfaces into one network.',
    fastboot: 'Starts faster by skipping the checks at boot.',
    autorun: 'Starts programs from a USB stick when it is plugged in.',
    dhcp_server: 'Hands out IP addresses to devices on a network interface.',
    usb_device_restore: 'Restores settings from a USB stick when it is plugged in.',
  },
  reset: {
    title: 'Factory reset',
    intro: 'Puts the unit back to the state it left the factory in. Make a backup first if you may need the settings again.',
    lost: 'Lost: every setting of every page (back to the defaults), the services (back to their defaults), all users and their passwords, the uploaded certificates and keys, the HTTP server files, the script files, the log configuration files, the log files in internal and temporary memory and the Prometheus scrape token. Everyone is logged out.',
    kept: 'Kept: the audit log, and the files on a USB stick.',
    button: 'Factory reset…',
    confirmTitle: 'Reset the unit to factory state?',
    confirmText: 'This cannot be undone. Afterwards you create a new administrator.',
    yes: 'Delete everything and reset',
    no: 'Cancel',
    failed: 'The factory reset failed: {reason}',
    done: 'The unit is reset. Create the administrator.',
  },
} satisfies BaseTranslation;

export default en_services;
