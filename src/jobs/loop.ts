import type { Db, JobWithMetadata, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { jobWait } from '../lib/metrics.js';
import { MalformedJobData, type JobLoop } from './job.js';

export interface PollLoopOptions {
  /** Loops side by side, each fetching its own batches. */
  lanes: number;
  /** How long a lane whose fetch came back short waits before the next, unless woken. */
  pollMs: number;
  /** One fetch and its work; answers whether the fetch was full (more may be waiting: fetch again at once). */
  once(): Promise<boolean>;
  onError(err: unknown): void;
}

/**
 * The fetching of a worker that fetches its own jobs (RegisteredWorker's `fetching`): `lanes`
 * loops, each running `once` again at once after a full fetch and after `pollMs` otherwise, or as
 * soon as it is woken. A wake that comes while a lane is fetching spares it the next wait, so
 * jobs queued during a fetch are not left for the poll (test/sending/outbox.test.ts).
 */
export class PollLoop implements JobLoop {
  private stopping = false;
  private wakes = 0;
  private readonly sleepers = new Set<() => void>();
  private readonly lanes: Promise<void>[];

  constructor(private readonly opts: PollLoopOptions) {
    this.lanes = Array.from({ length: opts.lanes }, () => this.lane());
  }

  private async lane(): Promise<void> {
    while (!this.stopping) {
      const wakes = this.wakes;
      let full = false;
      try {
        full = await this.opts.once();
      } catch (err) {
        this.opts.onError(err);
      }
      if (!full && wakes === this.wakes && !this.stopping) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.opts.pollMs);
      this.sleepers.add(done);
    });
  }

  wake(): void {
    this.wakes++;
    for (const done of [...this.sleepers]) done();
  }

  /** No more fetches; resolves once every lane's work under way is done. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await Promise.all(this.lanes);
  }
}

/** How long each fetched job waited past its due time, as the `jobWait` metric shows it. */
export function observeJobWait(queue: string, jobs: readonly Pick<JobWithMetadata, 'createdOn' | 'startAfter'>[]): void {
  const now = Date.now();
  for (const job of jobs) {
    const due = Math.max(new Date(job.createdOn).getTime(), new Date(job.startAfter).getTime());
    jobWait.observe({ queue }, Math.max(0, now - due) / 1000);
  }
}

/** A fetched job's attempt and how it ended: null completes it, an error fails it (pg-boss retries it, or not after its last). */
export interface JobOutcome {
  id: string;
  retryCount: number;
  error: Error | null;
}

/**
 * Settles fetched jobs through pg-boss's API, inside the transaction `db` is bound to: the
 * completed in one call, the failed in one call per distinct error (their output), each fenced to
 * the attempt that was fetched, so a job retried meanwhile is left alone.
 */
export async function settleJobs(boss: PgBoss, queue: string, db: Db, outcomes: readonly JobOutcome[], log: Logger): Promise<void> {
  const done = outcomes.filter((o) => !o.error);
  if (done.length) await boss.complete(queue, done.map(({ id, retryCount }) => ({ id, retryCount })), null, { db });
  const failed = new Map<string, JobOutcome[]>();
  for (const o of outcomes) {
    if (!o.error) continue;
    if (o.error instanceof MalformedJobData) log.error({ err: o.error, job: queue, id: o.id }, 'job data refused by its schema');
    const group = failed.get(o.error.message) ?? failed.set(o.error.message, []).get(o.error.message)!;
    group.push(o);
  }
  for (const [message, group] of failed) {
    log.warn({ job: queue, jobs: group.length, err: message }, 'jobs failed');
    await boss.fail(queue, group.map(({ id, retryCount }) => ({ id, retryCount })), { message }, { db });
  }
}
