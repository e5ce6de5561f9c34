import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobWithMetadata } from 'pg-boss';
import type { AppServices } from '../../core/services.js';
import { transactionDb } from '../../jobs/boss.js';
import { MalformedJobData, parseJobData, type JobLoop } from '../../jobs/job.js';
import { observeJobWait, PollLoop } from '../../jobs/loop.js';
import { newId } from '../../lib/ids.js';
import { deliverJob } from '../../modules/sending/deliver.job.js';
import { claimBatch, deliverClaimed, engineOf } from './delivery.batch.js';
import type { LeasedJob } from './delivery-lease.entity.js';

/** How often a lane whose last fetch came back short looks again, unless the outbox relay wakes it first. */
const POLL_MS = 1000;

/**
 * The worker of `email.deliver`: lanes side by side (deliverJob's concurrency), each fetching a
 * batch of jobs and claiming its messages in one transaction, then delivering them and settling
 * the jobs. Fetched and claimed together, a batch is either still queued (the transaction rolled
 * back: any worker fetches it again at once) or active under a lease row that another worker
 * takes over within a lease of its owner's death; pg-boss's heartbeat, supervisor and retry delay
 * are never what a dead worker's mail waits for (test/sending/takeover.test.ts, bench:scaleout).
 */
export function deliveryLoop(services: AppServices): JobLoop {
  const { config, log } = services;
  const engine = engineOf(services);
  const batchSize = typeof deliverJob.batchSize === 'function' ? deliverJob.batchSize(config) : (deliverJob.batchSize ?? 1);
  const loop = new PollLoop({
    lanes: deliverJob.concurrency?.(config) ?? 1,
    pollMs: POLL_MS,
    once: async () => (await fetchAndDeliver(services, batchSize)) >= batchSize,
    onError: (err) => log.warn({ err: (err as Error).message }, 'delivery jobs not fetched'),
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      await engine.stop();
    },
  };
}

/** One batch: fetched and claimed in one transaction, then delivered and settled. Answers how many jobs it fetched. */
async function fetchAndDeliver(services: AppServices, batchSize: number): Promise<number> {
  const em = services.orm.em.fork() as EntityManager;
  const claimed = await em.transactional(async (tx) => {
    const jobs = await services.boss.fetch<unknown>(deliverJob.name, { batchSize, includeMetadata: true, db: transactionDb(tx)! });
    if (!jobs.length) return null;
    observeJobWait(deliverJob.name, jobs);
    const leased = jobs.map(leasedJob);
    const idsOf = (of: LeasedJob[]) => of.flatMap((j) => (j.messageId === null ? [] : [j.messageId]));
    return claimBatch(services, tx, {
      leaseId: newId(),
      messageIds: idsOf(leased),
      finalIds: idsOf(leased.filter((_, i) => jobs[i].retryCount >= jobs[i].retryLimit)),
      jobs: leased,
    });
  });
  if (!claimed) return 0;
  await deliverClaimed(services, claimed);
  return claimed.lease.jobs.length;
}

/** A fetched job as its batch's lease row keeps it: a job whose data the schema refuses fails alone. */
function leasedJob(job: JobWithMetadata<unknown>): LeasedJob {
  try {
    return { id: job.id, retryCount: job.retryCount, messageId: parseJobData(deliverJob, job.data).message_id };
  } catch (err) {
    if (!(err instanceof MalformedJobData)) throw err;
    return { id: job.id, retryCount: job.retryCount, messageId: null, refused: err.issues };
  }
}
