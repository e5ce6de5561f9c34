import type { WebhookLogEntry } from './log.type.js';
import type { WebhookAttempt } from './webhook.entity.js';

/** An attempt as written to webhook_attempts: a loaded row, or one whose insert is on its way. */
export type LoggedAttempt = Pick<
  WebhookAttempt,
  'id' | 'delivery_id' | 'type' | 'attempted_at' | 'success' | 'status' | 'duration_ms' | 'response_excerpt' | 'error'
>;

/**
 * The one serialiser of a log entry: the log's pages and the live stream's notices (log.notice.ts)
 * both use it. Its own file, so the delivery worker loads no GraphQL to NOTIFY an attempt.
 */
export function toWebhookLogEntry(a: LoggedAttempt): WebhookLogEntry {
  return {
    id: a.id,
    delivery_id: a.delivery_id,
    type: a.type,
    attempted_at: a.attempted_at,
    success: a.success,
    status: a.status,
    duration_ms: a.duration_ms,
    response_excerpt: a.response_excerpt,
    error: a.error,
  };
}
