import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { input, stats } from '../../test/fixtures/metrics-input.ts';
import { type ParsedFamily, parseExposition, sampleValue } from '../../test/support/exposition.ts';
import { METRIC_NAME } from './exposition.ts';
import { LINK_STATS, metricFamilies, renderMetrics, THREAD } from './series.ts';

describe('the series of GET /metrics', () => {
  const families: ParsedFamily[] = parseExposition(renderMetrics(input));
  const value = (name: string, labels: Record<string, string> = {}) => sampleValue(families, name, labels);

  it('are valid names with HELP and TYPE; counters end in _total, units are in the names', () => {
    expect(families.length).toBeGreaterThan(60);
    for (const f of families) {
      expect(f.name).toMatch(METRIC_NAME);
      expect(f.help.length, f.name).toBeGreaterThan(5);
      expect(['counter', 'gauge']).toContain(f.type);
      if (f.type === 'counter') expect(f.name).toMatch(/_total$/);
      else expect(f.name).not.toMatch(/_total$/);
      // a time or size in a name says its base unit
      expect(f.name, 'no milliseconds, kilobytes or minutes').not.toMatch(/_(ms|milliseconds|kb|kilobytes|minutes)(_|$)/);
      for (const s of f.samples) for (const k of Object.keys(s.labels)) expect(k).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]*$/);
    }
  });

  it('give every number of a link with its name and protocol, ms as seconds', () => {
    const com1 = { link: 'COM1', protocol: 'MEWTOCOL' };
    const expected = {
      communicator_link_requests_total: 11,
      communicator_link_errors_total: 2,
      communicator_link_timeouts_total: 3,
      communicator_link_retries_total: 4,
      communicator_link_answers_total: 5,
      communicator_link_late_answers_total: 6,
      communicator_link_mismatched_answers_total: 7,
      communicator_link_resyncs_total: 8,
      communicator_link_check_errors_total: 21,
      communicator_link_invalid_frames_total: 22,
      communicator_link_plc_errors_total: 23,
      communicator_link_last_plc_error_code: 61,
      communicator_link_reconnects_total: 24,
      communicator_link_sent_bytes_total: 900,
      communicator_link_received_bytes_total: 1000,
      communicator_link_busy_seconds_total: 1.5,
      communicator_link_busy_ratio: 0.25,
      communicator_link_waiting_requests: 1,
      communicator_link_counters_start_time_seconds: 1_700_000_000,
    };
    for (const [name, v] of Object.entries(expected)) expect(value(name, com1), name).toBe(v);
    // every number of the stats has its series
    expect(Object.keys(LINK_STATS).sort()).toEqual(Object.keys(stats).sort());
    expect(value('communicator_link_requests_total', { link: 'COM4', protocol: 'MODBUS' })).toBe(1);
    expect(value('communicator_link_busy_seconds_total', com1)).toBe(1.5);
    expect(value('communicator_link_counters_start_time_seconds', { link: 'INTERNAL' })).toBeUndefined();
    expect(value('communicator_link_up', com1)).toBe(1);
    expect(value('communicator_link_up', { link: 'COM4' })).toBe(0);
    expect(value('communicator_link_enabled', { link: 'INTERNAL' })).toBe(0);
    expect(value('communicator_link_baud_rate', com1)).toBe(19200);
    // a state set: one series per state, exactly the current one at 1
    const state = families.find((f) => f.name === 'communicator_link_state')!.samples.filter((s) => s.labels.link === 'COM4');
    expect(state.map((s) => [s.labels.state, s.value])).toEqual([
      ['disabled', 0],
      ['connecting', 0],
      ['up', 0],
      ['down', 1],
      ['absent', 0],
    ]);
  });

  it('give every number of a redirect thread with its index and port', () => {
    const labels = { index: '0', port: '9094' };
    const expected = {
      communicator_redirect_listening: 1,
      communicator_redirect_clients: 2,
      communicator_redirect_requests_total: 50,
      communicator_redirect_refused_total: 3,
      communicator_redirect_errors_total: 1,
      communicator_redirect_received_bytes_total: 400,
      communicator_redirect_sent_bytes_total: 800,
      communicator_redirect_faults_total: 0,
      communicator_redirect_counters_start_time_seconds: 1_700_000_500,
    };
    for (const [name, v] of Object.entries(expected)) expect(value(name, labels), name).toBe(v);
    expect(Object.keys(THREAD).length).toBe(Object.keys(expected).length);
  });

  it('give the logger, each log file, the services, the TLS bridge, the script, the clock sync and the IEC 104 station', () => {
    expect(value('communicator_logger_write_state', { state: 'low_memory' })).toBe(1);
    expect(value('communicator_logger_write_state', { state: 'ok' })).toBe(0);
    expect(value('communicator_logger_records_total', { file: 'tank' })).toBe(100);
    expect(value('communicator_logger_missed_records_total', { file: 'tank' })).toBe(2);
    expect(value('communicator_logger_last_record_time_seconds', { file: 'tank' })).toBe(1_700_000_004);
    expect(value('communicator_logger_last_trigger_time_seconds', { file: 'tank' })).toBe(1_700_000_005);
    expect(value('communicator_logger_last_trigger_time_seconds', { file: 'idle' })).toBeUndefined(); // never triggered
    expect(value('communicator_logger_dropped_records')).toBe(7);

    expect(value('communicator_service_events_total', { service: 'mqtt', event: 'published' })).toBe(9);
    expect(value('communicator_service_state', { service: 'mqtt', state: 'connected' })).toBe(1);
    expect(value('communicator_service_last_error_time_seconds', { service: 'mqtt' })).toBe(1_700_000_002);
    expect(value('communicator_service_queue_jobs', { service: 'mqtt' })).toBe(4);
    expect(value('communicator_service_queue_jobs', { service: 'tls' })).toBeUndefined(); // no queue
    expect(value('communicator_service_dead_letter_bytes', { service: 'mqtt' })).toBe(300);

    expect(value('communicator_tls_bridge_tls_failures_total', { part: 'server' })).toBe(5);
    expect(value('communicator_script_section_runs_total', { section: 'on R10A', line: '9' })).toBe(2);
    expect(value('communicator_script_section_last_run_seconds', { section: 'cycle 60', line: '3' })).toBe(0.25);
    expect(value('communicator_script_section_runs_total', { section: 'cycle 60', line: '12' })).toBe(7);
    expect(value('communicator_rtc_last_sync_ok')).toBe(1);
    expect(value('communicator_iec104_events_acknowledged_total', { group: '0' })).toBe(17);
    expect(value('communicator_iec104_commands_total', { group: '0', result: 'no_answer' })).toBe(0);
    expect(value('communicator_iec104_commands_total', { group: '0', result: 'done' })).toBe(3);
    expect(value('communicator_iec104_clock_syncs_total')).toBe(2);
  });

  it('give the process, the volumes and the version', () => {
    expect(value('process_resident_memory_bytes')).toBe(50e6);
    expect(value('process_cpu_seconds_total')).toBe(1.25);
    expect(value('process_start_time_seconds')).toBe(1_700_000_000.5);
    expect(value('nodejs_heap_used_bytes')).toBe(20e6);
    expect(value('communicator_build_info', { version: '1.5.0' })).toBe(1);
    expect(value('communicator_volume_free_bytes', { volume: 'internal' })).toBe(600);
    expect(value('communicator_volume_mounted', { volume: 'usb' })).toBe(0);
    expect(value('communicator_volume_free_bytes', { volume: 'usb' })).toBeUndefined();
  });

  it('name every family in docs/monitoring.md', () => {
    const doc = readFileSync(new URL('../../docs/monitoring.md', import.meta.url), 'utf8');
    const missing = metricFamilies(input)
      .map((f) => f.name)
      .filter((n) => !doc.includes(`\`${n}\``));
    expect(missing).toEqual([]);
    // and the page names no series the unit does not have
    const named = new Set([...doc.matchAll(/`((?:communicator|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!));
    const made = new Set(metricFamilies(input).map((f) => f.name));
    expect([...named].filter((n) => !made.has(n))).toEqual([]);
  });
});
