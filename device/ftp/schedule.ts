// The transmission cycle of pew_script (spec §3 Script: ftp_transmission, transmission_btime,
// ftp_send_cycle; §9 FTP send: cycle minimum 60 s, maximum base time 86400 s). The sends of a day
// are at its local midnight + base time + k · cycle (k any whole number) that fall within that day:
// the base time sets the phase of the cycle, and each day starts the count again, so a cycle that
// does not divide a day keeps the same times every day. Local time is the unit's time zone.

/** Local midnight of the day that holds `ms`, and of the day after (DST days are 23 or 25 h). */
function dayOf(ms: number): { start: number; end: number } {
  const d = new Date(ms);
  return {
    start: new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime(),
    end: new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime(),
  };
}

/** The first send of the day starting at `start` at or after `from` (undefined when none is left that day). */
function firstInDay(start: number, end: number, baseS: number, cycleS: number, from: number): number | undefined {
  const anchor = start + baseS * 1000;
  const cycle = cycleS * 1000;
  const k = Math.ceil((from - anchor) / cycle);
  const t = anchor + k * cycle;
  return t < end ? t : undefined;
}

/** The next send strictly after `now` (ms since the epoch). */
export function nextSend(now: number, baseS: number, cycleS: number): number {
  let day = dayOf(now);
  const today = firstInDay(day.start, day.end, baseS, cycleS, now + 1);
  if (today !== undefined) return today;
  // nothing left today: the first send of the next day that has one (every day has one, the cycle being ≤ a day)
  for (let i = 0; i < 3; i++) {
    day = dayOf(day.end);
    const t = firstInDay(day.start, day.end, baseS, cycleS, day.start);
    if (t !== undefined) return t;
  }
  return day.end;
}
