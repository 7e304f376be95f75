// English online help, one text per page (spec §2), loaded when the help is opened.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_help = {
  info: 'Shows the unit: operating system, network, time, services, installed apps and versions. Warnings appear at the top when a version is too old or a setting weakens security. The system log below updates itself every 5 seconds.',
  com: 'One block per interface towards the PLC: COM1 (RS232), COM2 (RS485 or RS232), COM3 (USB), INTERNAL (the unit\'s own Modbus memory) and COM4 (Ethernet, the PLC address as IP:port). A disabled interface keeps its settings.\nThe link status under each block updates itself every 1.5 seconds: the state, the baud rate in use (also when autobaud found it) and the counters of requests, errors, timeouts, retries, bytes and how busy the link is.\nPLC test asks the PLC for its type over the saved settings of the interface and shows the CPU type and the raw reply. The interface must be enabled and saved, and for TCP its port must be open. With unsaved changes you are asked first.\nPLC settings: the service control interface is the one through which MQTT, the data logger and the other services read their control registers; a transparent interface cannot be used for it. The unit can also be restarted by a PLC flag (R) or every few hours.\nSave stores the page; Reset fills in the defaults, which are stored when you save.',
  port: 'Up to 10 threads, each a TCP port that clients connect to; the thread forwards their PLC requests to the chosen interface (COM1, COM2, COM3, INTERNAL or COM4).\nPer thread: the listening port (1025 – 65535, not 3000, 8000, 8080, 8081 or 5900; 502 for Modbus), the number of clients at the same time (1 – 16), the idle timeout (1 – 600 s) after which a silent client is disconnected, and the allowed client addresses from – to (0.0.0.0 – 0.0.0.0 accepts everyone). Monitoring commands lets status commands such as RT pass.\nRestrictions (up to 10 per thread) grant PLC words: Read only, Read and write, or Blocked, which wins over a grant. A word without an entry cannot be reached. The start must not be greater than the end, and two grants of the same area must not overlap (\'addresses overlap\').\nModbus/TCP gateway: clients speak Modbus; each restriction names its Modbus table (holding or input registers: one per word; coils or discrete inputs: 16 per word, only for the relay areas WY, WR, WL and WX) and its Modbus start. The Modbus addresses it covers are shown under it.\nUnder each saved thread its status updates every 1.5 seconds: listening or not, clients, requests, refused, errors and bytes. Connection test sends a request through the saved thread and shows it with the raw reply; with unsaved changes you are asked first.\nSave stores the page; Reset fills in the defaults (no thread), which are stored when you save.',
  wizard_com: 'Sets up one PLC connection step by step. Mode: Simple (one interface and a TCP port) or Advanced (also a Modbus/TCP gateway and DT restrictions).\nChoose the interface and its parameters as on the COM page; the wizard enables it. Then the TCP listening port (default 9094) and, in advanced mode, the Modbus listening port (default 502) and the gateway: none, through the same interface, or through another interface that the wizard also enables.\nRestriction rules: Allow all read gives read-only access to every PLC area, Allow all write read and write access; Individual lets you enter the areas yourself. On the gateway, holding registers 0 – 65535 are DT0 – DT65535, coils from 0 the Y relays and coils from 10000 the R relays, 16 per word.\nEvery step is checked before Continue. Finish overwrites the current COM and Port settings in one go: if anything fails, nothing is changed and \'Something went wrong\' names the problem. Cancel leaves the wizard without changes.',
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
