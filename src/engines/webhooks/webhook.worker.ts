import { defineWorker } from '../../jobs/job.js';
import type { AppServices } from '../../core/services.js';
import { Conveyor, deliverDue } from './webhook.delivery.js';
import { dispatchEvents } from './event.dispatch.js';
import { webhookTickJob } from '../../modules/webhooks/dispatch.job.js';

/** How often the engine looks for new events and due retries while it runs. */
export const TICK_SECONDS = 2;

/**
 * Why this chain is safe: the next tick is sent throttled (one job per TICK_SECONDS slot,
 * pg-boss singletonSeconds), so however many ticks run, at most one is queued per slot; the
 * cron restarts the chain each minute should it ever break (a crash between two ticks).
 */
export const webhookTickWorker = defineWorker(webhookTickJob, async (_data, services: AppServices) => {
  try {
    await runTick(services);
  } finally {
    await scheduleNextTick(services);
  }
});

/**
 * One round of the engine, without scheduling the next: what tests call to advance it. New
 * deliveries go from the dispatcher straight onto this worker's conveyor (leased to it, no claim),
 * posting while the next events are dispatched; then due retries are claimed. When it returns,
 * every event taken is dispatched and every delivery taken is attempted and recorded.
 */
export async function runTick(services: AppServices): Promise<{ dispatched: number; attempted: number }> {
  const conveyor = new Conveyor(services);
  let fresh = 0;
  let dispatched: number;
  try {
    dispatched = await dispatchEvents(services.orm.em.fork(), {
      lease: () => conveyor.lease(),
      deliver: (claimed) => {
        fresh += claimed.length;
        return conveyor.add(claimed);
      },
    });
  } catch (err) {
    await conveyor.finish();
    throw err;
  }
  // No more fresh deliveries: the last ones are recorded as they finish, not by whole rounds.
  conveyor.drain();
  // Due retries are claimed while the last fresh deliveries post and are recorded, not after:
  // none of those is due (each is leased, or written with its outcome), and deliverDue finishes
  // the conveyor before it returns.
  const due = await deliverDue(services, undefined, conveyor);
  return { dispatched, attempted: fresh + due };
}

async function scheduleNextTick(services: AppServices): Promise<void> {
  try {
    await services.boss.sendThrottled(webhookTickJob.name, {}, { startAfter: TICK_SECONDS }, TICK_SECONDS, 'chain');
  } catch (err) {
    // The boss may be stopping (shutdown); the cron restarts the chain.
    services.log.debug({ err }, 'next webhook tick not scheduled');
  }
}
