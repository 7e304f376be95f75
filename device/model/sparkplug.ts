// Which data logger points a Sparkplug B edge node publishes, and under which metric names
// (docs/sparkplug.md). Shared by the model's cross-section rules (rules.ts) and the edge node's
// metric table (device/sparkplug/metrics.ts), so both agree on names and membership.
import type { Log } from './sections/log.ts';
import type { LogFile, LogRecord } from './sections/logfile.ts';
import type { Mqtt } from './sections/mqtt.ts';
import type { Pew } from './sections/pew.ts';

/** The device id: the one set, else the name of the PLC's interface (may be no valid id: rules.ts reports it). */
export const sparkplugDeviceId = (m: Pick<Mqtt, 'sparkplug_device_id'>, pew: Pick<Pew, 'interfaces' | 'interface_plc'>): string =>
  m.sparkplug_device_id || (pew.interfaces.find((i) => i.id === pew.interface_plc)?.name ?? '');

/** A metric's name: `<log file>/<variable>`, the log file a folder on the host (neither name holds a `/`). */
export const sparkplugMetricName = (file: Pick<LogFile, 'name'>, record: Pick<LogRecord, 'name'>): string => `${file.name}/${record.name}`;

/** A point the device publishes: where it sits in pew_log.log_def, and its metric name `<log file>/<variable>`. */
export interface SparkplugPoint {
  fileIndex: number;
  recordIndex: number;
  file: LogFile;
  record: LogRecord;
  /** sparkplugMetricName */
  name: string;
  /** true when an earlier point has the same name but for case (case-sensitivity-metric-names) */
  duplicate: boolean;
}

/**
 * The points of the device in log_def order (log file, then record): those read on `interfaceId`,
 * the device's interface (the PLC's, pew.interface_plc).
 */
export function sparkplugPoints(log: Pick<Log, 'log_def'>, interfaceId: number): SparkplugPoint[] {
  const seen = new Set<string>();
  return log.log_def.flatMap((file, fileIndex) =>
    file.records.flatMap((record, recordIndex) => {
      if (record.if !== interfaceId) return [];
      const name = sparkplugMetricName(file, record);
      const key = name.toLowerCase();
      const duplicate = seen.has(key);
      seen.add(key);
      return [{ fileIndex, recordIndex, file, record, name, duplicate }];
    }),
  );
}
