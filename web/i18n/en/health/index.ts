// English: the texts of the health plots (/health), loaded with the page.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_health = {
  intro: 'The last hour, a sample every {seconds} s.',
  waiting: 'No sample yet: the first comes {seconds} s after the unit starts.',
  links: 'PLC links',
  noLinks: 'No PLC link ran in the last hour.',
  busy: 'Busy share of each link',
  requests: 'Requests of each link',
  faults: 'Errors and timeouts of each link',
  errorsOf: '{link} errors',
  timeoutsOf: '{link} timeouts',
  storage: 'Storage',
  volumes: { internal: 'Internal memory', usb: 'USB stick', temp: 'Temporary memory' },
  freeSpace: 'Free space',
  free: '{free} free of {total} ({share})',
  low: 'Less than 10% free: the data logger stops when memory runs low.',
  dataLogger: 'Data logger',
  records: 'Records written',
  daemon: 'The unit’s service (daemon)',
  cpu: 'CPU, share of one core',
  memory: 'Memory',
  rss: 'Resident memory',
  heap: 'JavaScript heap',
  units: { perSecond: 'per second', mb: 'MB', gb: 'GB' },
  amounts: { mb: '{n}\u00a0MB', gb: '{n}\u00a0GB' },
  table: { caption: '{title}, the last hour', series: 'Series', now: 'Now', min: 'Lowest', max: 'Highest' },
  none: 'no value',
} satisfies BaseTranslation;

export default en_health;
