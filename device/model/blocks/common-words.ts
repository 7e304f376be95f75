// The words every control block shares (convention.ts): request, state, error code, counter at
// offsets 0-3. The FTP block keeps its older order (counter at 5, ftp.ts).
import { type BlockWord, SERVICE_ERROR, STATE } from './convention.ts';

export function headWords(requests: Readonly<Record<string, number>>, what: string, counterOffset = 3): BlockWord[] {
  return [
    {
      offset: 0,
      name: 'request',
      dir: 'plc',
      role: 'request',
      meaning: `≠ 0 asks for ${what} (values below); the unit writes 0 back when it takes the request, in one write with the state and error words`,
      values: requests,
    },
    { offset: 1, name: 'state', dir: 'unit', role: 'state', meaning: 'state of the last request', values: STATE },
    { offset: 2, name: 'error', dir: 'unit', role: 'error', meaning: 'error code of the last finished request (0 when it succeeded)', values: SERVICE_ERROR },
    {
      offset: counterOffset,
      name: 'counter',
      dir: 'unit',
      role: 'counter',
      meaning: 'requests finished since the engine started (done or error), 0-65535, wraps',
    },
  ];
}

/** A pointer to a string or payload in PLC memory: its DT address and its length in bytes. */
export function pointerWords(offset: number, name: string, what: string, max: number, lengthMeaning?: string): BlockWord[] {
  return [
    { offset, name: `${name}_addr`, dir: 'plc', meaning: `DT address of ${what}`, unit: 'DT' },
    {
      offset: offset + 1,
      name: `${name}_len`,
      dir: 'plc',
      meaning: lengthMeaning ?? `length of ${what} in bytes (max ${max}); 0 = up to its first NUL byte within ${max} bytes`,
      unit: 'bytes',
    },
  ];
}

/** The queue's two words: jobs waiting for the peer, jobs dropped at the bound. */
export function queueWords(offset: number, jobs: string, peer: string): BlockWord[] {
  return [
    { offset, name: 'queue_waiting', dir: 'unit', meaning: `${jobs} waiting in the queue for the ${peer} (0-65535)` },
    { offset: offset + 1, name: 'queue_dropped', dir: 'unit', meaning: `${jobs} dropped because the queue was full (0-65535, stays at 65535)` },
  ];
}
