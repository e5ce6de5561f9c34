import type { EntityManager } from '@mikro-orm/postgresql';
import { defineJob } from '../../jobs/job.js';
import type { AppServices } from '../../services.js';
import { deliverDue } from './deliver.js';
import { dispatchEvents } from './dispatch.js';

/** How often the engine looks for new events and due retries while it runs. */
export const TICK_SECONDS = 2;
const TICK_QUEUE = 'webhook.tick';

/**
 * The webhook engine's heartbeat. Each tick turns undispatched domain_events into deliveries,
 * then attempts every due delivery (a poller over `state = 'pending' and next_attempt_at <= now`,
 * skip locked), then schedules the next tick TICK_SECONDS later.
 *
 * Why a poller rather than one pg-boss job per attempt: the schedule lives in the deliveries
 * themselves (next_attempt_at), so a paused webhook's deliveries simply wait, a replay is an
 * update, and tests drive retries by moving next_attempt_at and calling perform(), never sleeping.
 * Producers need not know about webhooks: they only write domain_events.
 *
 * Why this chain is safe: the next tick is sent throttled (one job per TICK_SECONDS slot,
 * pg-boss singletonSeconds), so however many ticks run, at most one is queued per slot; the
 * cron restarts the chain each minute should it ever break (a crash between two ticks).
 */
export const webhookTickJob = defineJob<Record<string, never>>({
  name: TICK_QUEUE,
  // A failed tick is not retried: the next one does the same work.
  retryLimit: 0,
  expireInSeconds: 120,
  cron: () => '* * * * *',
  // A fresh worker starts the chain at once instead of at the next cron minute.
  kickOnStart: true,
  async perform(_data, services) {
    try {
      await runTick(services);
    } finally {
      await scheduleNextTick(services);
    }
  },
});

/** One round of the engine, without scheduling the next: what tests call to advance it. */
export async function runTick(services: AppServices): Promise<{ dispatched: number; attempted: number }> {
  const dispatched = await dispatchEvents(services.orm.em.fork() as EntityManager);
  const attempted = await deliverDue(services);
  return { dispatched, attempted };
}

async function scheduleNextTick(services: AppServices): Promise<void> {
  try {
    await services.boss.sendThrottled(TICK_QUEUE, {}, { startAfter: TICK_SECONDS }, TICK_SECONDS, 'chain');
  } catch (err) {
    // The boss may be stopping (shutdown); the cron restarts the chain.
    services.log.debug({ err }, 'next webhook tick not scheduled');
  }
}
