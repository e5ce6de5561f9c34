import type { EntityManager } from '@mikro-orm/postgresql';
import { newId, sortableId } from '../../lib/ids.js';
import type { AppServices } from '../../core/services.js';
import { postWebhook, type WebhookCallResult } from '../../lib/webhook-http.js';
import { signatureHeaders } from '../../lib/webhook-signature.js';
import { WebhookAttempt } from './webhook.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

/**
 * The `webhook.test` request (SPEC.md "Registration, test request and signature"), shared by
 * every kind of webhook a customer registers: email and SMS webhooks alike.
 */
export const TEST_EVENT = 'webhook.test';
const TEST_MESSAGE = 'This is a test request to check that the webhook URL accepts events.';

/** Why the URL failed its test request, as the 422 on `url` says it. */
export function testFailure(result: WebhookCallResult): string {
  if (result.status !== null) return `The url answered the test request with HTTP ${result.status}; a 2xx answer is required.`;
  return `The url could not be reached by the test request: ${result.error}.`;
}

/** Sends the request, signed with the fixed test secret (all four headers), through the SSRF guard. */
export function sendTestRequest(services: Pick<AppServices, 'config' | 'dns'>, url: string): Promise<WebhookCallResult> {
  const { config, dns } = services;
  const at = new Date();
  const body = JSON.stringify({ type: TEST_EVENT, message: TEST_MESSAGE, created_at: isoTimestamp(at) });
  return postWebhook({
    url,
    body,
    headers: signatureHeaders(config.WEBHOOK_TEST_SECRET, body, `msg_${newId(24)}`, at),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    dns,
    // The engine's connections to the same receiver: its deliveries can reuse this one.
    connectionsPerOrigin: config.WEBHOOK_CONNECTIONS_PER_ORIGIN,
  });
}

/** Writes the test request to the webhook's log (no delivery: `delivery_id` is null). */
export async function logTestRequest(em: EntityManager, webhookId: string, result: WebhookCallResult): Promise<void> {
  await em.insert(WebhookAttempt, {
    id: sortableId(),
    webhook_id: webhookId,
    delivery_id: null,
    type: TEST_EVENT,
    attempted_at: new Date(),
    success: result.ok,
    status: result.status,
    duration_ms: result.durationMs,
    response_excerpt: result.excerpt,
    error: result.error?.slice(0, 1000) ?? null,
  });
}
