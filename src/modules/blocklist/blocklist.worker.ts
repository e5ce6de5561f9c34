import type { AppServices } from '../../core/services.js';
import { defineWorker } from '../../jobs/job.js';
import { decrypt } from '../../lib/secrets.js';
import { postWebhook } from '../../lib/webhook-http.js';
import { signatureHeaders } from '../../lib/webhook-signature.js';
import { BlocklistMonitor } from './blocklist.entity.js';
import { blocklistInitialCheckJob, blocklistRecheckJob, blocklistWebhookJob } from './blocklist.job.js';
import { checkMonitor, dueMonitors } from './blocklist.check.js';

export const blocklistInitialCheckWorker = defineWorker(blocklistInitialCheckJob, async ({ monitor_id }, services: AppServices) => {
  await checkMonitor(services, monitor_id);
});

export const blocklistRecheckWorker = defineWorker(blocklistRecheckJob, async (data, services: AppServices) => {
  for (const id of await dueMonitors(services, data.limit ?? 500)) {
    try {
      await checkMonitor(services, id);
    } catch (err) {
      // One monitor's failure must not hold back the others; it stays due for the next run.
      services.log.warn({ err, monitor_id: id }, 'blocklist check failed');
    }
  }
});

export const blocklistWebhookWorker = defineWorker(blocklistWebhookJob, async (data, services: AppServices) => {
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
});
