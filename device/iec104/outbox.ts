// The actions a pure part of the station (link.ts, station.ts) collects during one call and hands
// its owner at the end of it, with a `timer` action whenever its next deadline moved (the owner
// then arms one timer for it; null: none is due).

/** the part's next deadline on the monotonic clock, or null */
export interface TimerAction {
  kind: 'timer';
  at: number | null;
}

export class Outbox<A> {
  private actions: (A | TimerAction)[] = [];
  private timerAt: number | null = null;

  push(...a: A[]): void {
    this.actions.push(...a);
  }

  /** The actions of this call, emptied, with the timer action when `deadline` differs from the last one handed out. */
  take(deadline: number | null): (A | TimerAction)[] {
    if (deadline !== this.timerAt) {
      this.timerAt = deadline;
      this.actions.push({ kind: 'timer', at: deadline });
    }
    const out = this.actions;
    this.actions = [];
    return out;
  }
}
