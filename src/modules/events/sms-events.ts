import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainEvent } from './domain-event.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

/**
 * `sms.sent`, `sms.delivered` and `sms.failed` (SPEC.md "SMS events"). The producer (SMS sending)
 * records the `data` part here, in the transaction of the status change; the webhook engine adds
 * the envelope per SMS webhook (`type`, `sms_number_id`, `created_at`, `sms_webhook_id`, `url`).
 * SMS events have no domain: the engine sends them to the SMS webhooks of `sms_number_id`.
 */
export type SmsEventType = 'sms.sent' | 'sms.delivered' | 'sms.failed';

/** A text as the event shows it: the Sms entity (with `recipient` loaded) fits as it is. */
export interface SmsEventSms {
  id: string;
  from: string;
  to: string;
  text: string;
  status: string;
  segment_count: number;
  error_type: string | null;
  error_description: string | null;
  created_at: Date;
  /** The SMS message (POST /v1/sms) it belongs to. */
  message: { id: string };
  recipient: { id: string; number: string; status: string; created_at: Date };
}

/** The event's `data`: SPEC.md's fields, with `sms` and `sms.recipient`, as they are at the call. */
export function smsEventData(sms: SmsEventSms, at: Date): Record<string, unknown> {
  return {
    from: sms.from,
    to: sms.to,
    created_at: isoTimestamp(at),
    status: sms.status,
    sms_message_id: sms.message.id,
    sms: {
      id: sms.id,
      from: sms.from,
      to: sms.to,
      text: sms.text,
      status: sms.status,
      segment_count: sms.segment_count,
      error_type: sms.error_type,
      error_description: sms.error_description,
      created_at: isoTimestamp(sms.created_at),
      recipient: {
        id: sms.recipient.id,
        number: sms.recipient.number,
        status: sms.recipient.status,
        created_at: isoTimestamp(sms.recipient.created_at),
      },
    },
  };
}

/**
 * Records an SMS event through `em` (it commits with the status change). The payload is
 * `{sms_number_id, data}`; the engine builds each webhook's body from it.
 */
export function recordSmsEvent(em: EntityManager, accountId: string, smsNumberId: string, type: SmsEventType, sms: SmsEventSms, at = new Date()): void {
  em.create(DomainEvent, {
    account_id: accountId,
    domain_id: null,
    type,
    payload: { sms_number_id: smsNumberId, data: smsEventData(sms, at) },
    created_at: at,
  });
}
