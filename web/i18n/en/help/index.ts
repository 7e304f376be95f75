// English online help, one text per page (spec §2), loaded when the help is opened.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_help = {
  info: 'Shows the unit: operating system, network, time, services, installed apps and versions. Warnings appear at the top when a version is too old or a setting weakens security. The system log below updates itself every 5 seconds.',
  com: 'One block per interface towards the PLC: COM1 (RS232), COM2 (RS485 or RS232), COM3 (USB), INTERNAL (the unit\'s own Modbus memory) and COM4 (Ethernet, the PLC address as IP:port). A disabled interface keeps its settings.\nThe link status under each block updates itself every 1.5 seconds: the state, the baud rate in use (also when autobaud found it) and the counters of requests, errors, timeouts, retries, bytes and how busy the link is.\nPLC test asks the PLC for its type over the saved settings of the interface and shows the CPU type and the raw reply. The interface must be enabled and saved, and for TCP its port must be open. With unsaved changes you are asked first.\nPLC settings: the service control interface is the one through which MQTT, the data logger and the other services read their control registers; a transparent interface cannot be used for it. The unit can also be restarted by a PLC flag (R) or every few hours.\nSave stores the page; Reset fills in the defaults, which are stored when you save.',
  port: 'Open TCP ports that forward to the PLC, limit which clients may connect and which PLC registers they may read or write.',
  wizard_com: 'A guided setup of one PLC connection, its TCP port and, in advanced mode, the Modbus/TCP gateway and restrictions.',
  datetime: 'Let the unit set the PLC clock, at set times or on the PLC\'s request.',
  mqtt: 'The MQTT client publishes PLC data to a broker and writes received values into the PLC.\nGeneral: switch the client on and choose the control register block the PLC uses to drive it (its footprint is shown below the field).\nConnection: the broker address (mqtt://, mqtts://, ws:// or wss://), the login and the quality of service. A stored password shows as asterisks; leave them to keep it.\nCertificates: names of uploaded certificate files for TLS.\nSave stores the page; Reset fills in the defaults, which are stored when you save.',
  sql: 'Write PLC data into an SQL database (MS SQL, MySQL/MariaDB, PostgreSQL).',
  db: 'Write PLC data into MongoDB or InfluxDB.',
  ftp: 'Send files of the unit to an FTP server.',
  httpc: 'Send PLC data to an HTTP server.',
  smtp: 'Send e-mails triggered by the PLC.',
  rest: 'Let other systems read and write PLC data through a REST API, and serve uploaded web pages.',
  iec: 'Offer PLC data to a control centre over IEC 60870-5-104.',
  script: 'Run a script file on the unit.',
  tls: 'Carry plain connections over TLS (client) or accept TLS and pass it on in plain text (server).',
  tlsclient: 'The TLS client part of the bridge.',
  tlsserver: 'The TLS server part of the bridge.',
  log: 'Log PLC data into CSV files: files, triggers and data points.',
  graphs: 'Show log files as trend graphs.',
  backuprestore: 'Save all settings into a file, or restore them from one.',
  firmware: 'Install a new firmware image.',
  legal: 'Licence terms of the console and its components.',
  notfound: 'The address does not name a page. Use the menu.',
} satisfies BaseTranslation;

export default en_help;
