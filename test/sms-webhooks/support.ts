import type { Receiver } from '../support/receiver.js';
import type { TestServer } from '../support/server.js';

/** Helpers of the SMS webhook tests: numbers through the operator API, webhooks through /v1. */

export { assignNumberTo as assignNumber, randomE164, type AssignedNumber } from '../support/sms.js';

/**
 * An SMS webhook made through POST /v1/sms-webhooks (the receiver answers its test request),
 * whose secret the receiver then verifies requests to `path` with.
 */
export async function createSmsWebhook(
  s: TestServer,
  receiver: Receiver,
  opts: { smsNumberId: string; events: string[]; path: string; token?: string; enabled?: boolean },
): Promise<{ id: string; secret: string; url: string }> {
  receiver.secretFor('*', s.app.services.config.WEBHOOK_TEST_SECRET);
  const res = await s.rest('POST', '/sms-webhooks', {
    token: opts.token,
    body: { url: receiver.url(opts.path), name: `sms ${opts.path}`, events: opts.events, sms_number_id: opts.smsNumberId, enabled: opts.enabled ?? true },
  });
  if (res.status !== 201) throw new Error(`sms webhook create failed: ${res.status} ${res.text}`);
  receiver.secretFor(opts.path, res.body.data.secret);
  return { id: res.body.data.id, secret: res.body.data.secret, url: res.body.data.url };
}
