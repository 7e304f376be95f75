// Causes of transmission (IEC 60870-5-101 clause 7.2.3), the numbers the ASDU's COT field carries.

export const COT = {
  periodic: 1,
  background: 2,
  spontaneous: 3,
  initialized: 4,
  request: 5,
  activation: 6,
  activation_con: 7,
  deactivation: 8,
  deactivation_con: 9,
  activation_term: 10,
  return_remote: 11,
  return_local: 12,
  file_transfer: 13,
  interrogated_station: 20, // 21-36: interrogated by group 1-16
  counter_general: 37, // 38-41: counter group 1-4
  unknown_type: 44,
  unknown_cause: 45,
  unknown_ca: 46,
  unknown_ioa: 47,
} as const;

/** QOI of a station or group interrogation: 20, or 20 + group for groups 1-16. The answers' cause
 * is the QOI itself (COT 20 station, 21-36 group 1-16). */
export const isInterrogationQoi = (qoi: number): boolean => qoi >= 20 && qoi <= 36;
/** The cause of a counter interrogation answer for request qualifier RQT (5 general: 37; 1-4 group: 37 + n); undefined for another RQT. */
export const counterCause = (rqt: number): number | undefined => (rqt === 5 ? 37 : rqt >= 1 && rqt <= 4 ? 37 + rqt : undefined);
