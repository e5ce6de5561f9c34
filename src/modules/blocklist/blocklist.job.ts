import { defineJob } from '../../jobs/job.js';
import { decrypt } from '../../lib/secrets.js';
import { postWebhook } from '../webhooks/http.js';
import { signatureHeaders } from '../webhooks/sign.js';
import { BlocklistMonitor } from './blocklist.entity.js';
import { checkMonitor, dueMonitors } from './check.js';

/** The first check of a new monitor, queued with its creation. */
export const blocklistInitialCheckJob = defineJob<{ monitor_id: string }>({
  name: 'blocklist.initial-check',
  retryLimit: 3,
  retryDelay: 30,
  async perform({ monitor_id }, services) {
    await checkMonitor(services, monitor_id);
  },
});

/** Re-checks the monitors whose next_check has come. */
export const blocklistRecheckJob = defineJob<{ limit?: number }>({
  name: 'blocklist.recheck',
  retryLimit: 1,
  expireInSeconds: 3600,
  cron: (services) => services.config.BLOCKLIST_CHECK_CRON,
  async perform(data, services) {
    for (const id of await dueMonitors(services, data.limit ?? 500)) {
      try {
        await checkMonitor(services, id);
      } catch (err) {
        // One monitor's failure must not hold back the others; it stays due for the next run.
        services.log.warn({ err, monitor_id: id }, 'blocklist check failed');
      }
    }
  },
});

/**
 * One signed POST of a new-listing alert. The body, id and timestamp are fixed when queued, so
 * a retry carries the same signature input.
 */
export const blocklistWebhookJob = defineJob<{ monitor_id: string; forward_id: string; delivery_id: string; at: string; body: string }>({
  name: 'blocklist.webhook',
  retryLimit: 8,
  retryDelay: 30,
  async perform(data, services) {
    const monitor = await services.orm.em.fork().findOne(BlocklistMonitor, { id: data.monitor_id });
    const forward = monitor?.forwards.find((f) => f.id === data.forward_id && f.type === 'webhook');
    if (!forward?.secret_enc) return; // the monitor or the forward is gone
    const secret = decrypt(services.config.APP_SECRET, forward.secret_enc);
    const result = await postWebhook({
      url: forward.value,
      body: data.body,
      headers: signatureHeaders(secret, data.body, data.delivery_id, new Date(data.at)),
      timeoutMs: services.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: services.config.WEBHOOK_ALLOW_PRIVATE,
      dns: services.dns,
    });
    if (!result.ok && !result.permanent) throw new Error(result.error ?? `HTTP ${result.status}`);
    if (!result.ok) services.log.warn({ monitor_id: monitor!.id, error: result.error }, 'blocklist webhook refused');
  },
});
