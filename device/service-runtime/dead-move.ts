// Moving queued jobs to the dead letters (docs/services.md "Dead letters"), the one way every queued
// engine does it (queue-run.ts, mqtt/run.ts): the letters are stored durably first, then the jobs
// leave the queue, so a power cut in between keeps a job twice (queue and letters), never loses it.
import type { DeadLetters, DeadReason } from './dead-letters.ts';
import type { JobQueue, QueuedJob } from './queue.ts';
import type { Targeted } from './queue-run.ts';

/** jobs of a gone target looked at together */
const GONE_CHUNK = 500;

export interface DeadMoveDeps<J extends Targeted> {
  queue: JobQueue<J>;
  dead: DeadLetters<J>;
  /** the target of the saved settings */
  target: string;
}

/** Moves `jobs` (waiting in the queue) to the dead letters with why they go there. */
export async function moveToDead<J extends Targeted>(
  s: DeadMoveDeps<J>,
  jobs: readonly QueuedJob<J>[],
  code: DeadReason,
  message: string,
  tries: number,
): Promise<void> {
  const at = Date.now();
  await s.dead.addMany(jobs.map((b) => ({ job: b.job, why: { target: b.job.target ?? s.target, code, message, tries, at } })));
  await s.queue.ackMany(jobs.map((b) => b.seq));
}

/** Whether a queued job may go to the saved target: it was made for it (a job from before targets were kept goes too). */
export const forTarget = (job: Targeted, target: string): boolean => job.target === undefined || job.target === target;

/**
 * Moves the jobs at the head of the queue that were made for another target than the saved one
 * to the dead letters (target_gone); answers how many moved.
 */
export async function moveGone<J extends Targeted>(s: DeadMoveDeps<J>): Promise<{ moved: number; from?: string }> {
  let moved = 0;
  let from: string | undefined;
  for (;;) {
    const head = s.queue.head(GONE_CHUNK);
    const end = head.findIndex((b) => forTarget(b.job, s.target));
    const gone = end < 0 ? head : head.slice(0, end);
    if (gone.length === 0) return { moved, ...(from !== undefined ? { from } : {}) };
    from ??= gone[0]!.job.target;
    await moveToDead(s, gone, 'target_gone', `made for ${gone[0]!.job.target}; the saved target is ${s.target}`, 0);
    moved += gone.length;
    if (end >= 0) return { moved, from };
  }
}
