import { z } from 'zod';
import { defineJob } from '../../jobs/job.js';

/**
 * The webhook engine's heartbeat. Each tick turns undispatched domain_events into deliveries,
 * then attempts every due delivery (a poller over `state = 'pending' and next_attempt_at <= now`,
 * skip locked), then schedules the next tick a few seconds later (engines/webhooks/webhook.worker.ts).
 *
 * Why a poller rather than one pg-boss job per attempt: the schedule lives in the deliveries
 * themselves (next_attempt_at), so a paused webhook's deliveries simply wait, a replay is an
 * update, and tests drive retries by moving next_attempt_at and calling runTick(), never sleeping.
 * Producers need not know about webhooks: they only write domain_events.
 */
export const webhookTickJob = defineJob({
  name: 'webhook.tick',
  schema: z.object({}),
  // A failed tick is not retried: the next one does the same work.
  retryLimit: 0,
  expireInSeconds: 120,
  cron: () => '* * * * *',
  // A fresh worker starts the chain at once instead of at the next cron minute.
  kickOnStart: true,
});
