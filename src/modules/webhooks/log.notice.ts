import { toWebhookLogEntry, type LoggedAttempt } from './log.mapper.js';
import type { WebhookLogEntry } from './log.type.js';

/** The pubsub topic of an account's webhook attempts (the `webhook_deliveries` subscription). */
export const attemptTopic = (accountId: string) => `webhook_attempts:${accountId}`;

/** What the webhook engine (engines/webhooks/round.record.ts) publishes once an attempt is committed, and what stream.resolver.ts filters on. */
export interface AttemptNotice {
  webhook_id: string;
  /** Null for SMS webhooks and SMS inbound forwards: not this subscription's, whatever the token. */
  domain_id: string | null;
  entry: WebhookLogEntry;
}

/** The topic and detail (lib/pubsub.ts `live`, `afterCommit`) telling live subscribers of one attempt. */
export function attemptNotice(
  webhook: { id: string; account_id: string; domain_id: string | null },
  attempt: LoggedAttempt,
): { topic: string; detail: AttemptNotice } {
  return {
    topic: attemptTopic(webhook.account_id),
    detail: { webhook_id: webhook.id, domain_id: webhook.domain_id, entry: toWebhookLogEntry(attempt) },
  };
}
