// MQTT topic names and filters (MQTT 3.1.1 §4.7): what a publish may use, and whether a received
// topic matches a subscription's filter (`+` one level, `#` the rest).
import { RequestFault } from '../service-runtime/plc-text.ts';

/** A topic to publish to: not empty, no wildcard, no NUL; otherwise bad_string. */
export function checkPublishTopic(topic: string): void {
  if (topic === '' || /[+#\0]/.test(topic)) throw new RequestFault('bad_string', `"${topic}" is not a topic to publish to (empty, or with + # or NUL)`);
}

/** A subscription's filter: not empty, no NUL, `#` only as the last level, wildcards alone in their level. */
export function checkFilter(filter: string): void {
  const levels = filter.split('/');
  const ok =
    filter !== '' &&
    !filter.includes('\0') &&
    levels.every((l, i) => (l === '#' ? i === levels.length - 1 : !l.includes('#')) && (l === '+' || !l.includes('+')));
  if (!ok) throw new RequestFault('bad_string', `"${filter}" is not a topic filter`);
}

export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  // MQTT §4.7.2: a filter starting with a wildcard does not match topics starting with $
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
