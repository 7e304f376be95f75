import { describe, expect, it } from 'vitest';
import { section } from '../state/sections.ts';
import { checkedPoints, fileIndex, KEY, logFiles, selectedFile, selectedPoint, selectFile, setLogFiles } from './page-state.ts';

describe('/log page state', () => {
  it('reads the log files of the temporary copy; anything else is no list', () => {
    section(KEY).temp.value = { log_def: [{ id: 1, name: 'a' }] };
    expect(logFiles()).toEqual([{ id: 1, name: 'a' }]);
    section(KEY).temp.value = { log_def: 'x' };
    expect(logFiles()).toEqual([]);
  });

  it("a new list replaces log_def and drops the server's issues about it, not the others", () => {
    const s = section(KEY);
    s.temp.value = { enable_log: true, log_def: [] };
    s.serverIssues.value = [
      { path: 'log_def.0.name', code: 'duplicate' },
      { path: 'plc_ctrl_wr', code: 'addresses_overlap' },
    ];
    setLogFiles([{ id: 1, name: 'b' } as never]);
    expect(s.temp.value).toEqual({ enable_log: true, log_def: [{ id: 1, name: 'b' }] });
    expect(s.serverIssues.value).toEqual([{ path: 'plc_ctrl_wr', code: 'addresses_overlap' }]);
  });

  it('selecting a log file clears the point selection; the index stays inside the list', () => {
    selectedPoint.value = 4;
    checkedPoints.value = new Set([1, 2]);
    selectFile(3);
    expect([selectedFile.value, selectedPoint.value, checkedPoints.value.size]).toEqual([3, null, 0]);
    expect(fileIndex(2)).toBe(1);
    expect(fileIndex(5)).toBe(3);
    expect(fileIndex(0)).toBe(0);
  });
});
