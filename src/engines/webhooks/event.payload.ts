import { plainOfIso } from '../../lib/timestamps.js';

/** An internal event as the dispatcher reads it from domain_events. */
export interface EventRow {
  id: string;
  account_id: string | null;
  domain_id: string | null;
  type: string;
  /** The producer's JSON text of an object (domain_events.payload is `json`: stored as written). */
  payload: string;
  /** SPEC.md's <iso> form, as isoTimestamp writes it (`2026-11-22T17:04:05.123000Z`). */
  created_at: string;
}

/** SPEC.md "Email event data": this kind alone carries a <plain_timestamp> in its envelope. */
const PLAIN_TIMESTAMP_KINDS = new Set(['sender_identity.verified']);

/**
 * The `data` of an event for one webhook, as JSON text. Platform-wide events (a maintenance
 * window) are recorded once for every account, without a domain; SPEC.md gives their data a
 * `domain_id`, which can only be the receiving webhook's. Any other event's data is its payload's
 * text as stored, spliced in: a delivery neither parses nor writes it again.
 */
export function eventData(event: EventRow, webhookDomainId: string): string {
  if (event.type.startsWith('maintenance.')) return JSON.stringify({ domain_id: webhookDomainId, ...(JSON.parse(event.payload) as object) });
  return event.payload;
}

/** Event types as JSON strings: a few types, quoted once each rather than once per delivery. */
const quotedTypes = new Map<string, string>();
function quoted(type: string): string {
  let q = quotedTypes.get(type);
  if (q === undefined) {
    if (quotedTypes.size >= 1000) quotedTypes.clear();
    quotedTypes.set(type, (q = JSON.stringify(type)));
  }
  return q;
}

/** The receiving webhook, as far as its body depends on it. */
export interface BodyTarget {
  id: string;
  url: string;
  domain_id: string | null;
}

/** `sms.sent`, `sms.delivered`, `sms.failed`: events of one SMS number, for SMS webhooks only. */
export function isSmsEvent(type: string): boolean {
  return type.startsWith('sms.');
}

/**
 * The exact body of a delivery. It is built once and stored, so every retry sends, and signs,
 * the same bytes.
 * - Email events: the envelope `{type, created_at, data}` (SPEC.md "Email event kinds").
 * - SMS events: `{type, sms_number_id, created_at, sms_webhook_id, url, data}` (SPEC.md "SMS
 *   events"); the producer recorded `{sms_number_id, data}` (events/sms-events.ts), and the
 *   webhook's id and url are this target's.
 */
export function deliveryBody(event: EventRow, target: BodyTarget): string {
  if (isSmsEvent(event.type)) {
    const { sms_number_id, data } = JSON.parse(event.payload) as { sms_number_id: string; data: unknown };
    return JSON.stringify({
      type: event.type,
      sms_number_id,
      created_at: event.created_at,
      sms_webhook_id: target.id,
      url: target.url,
      data,
    });
  }
  const at = PLAIN_TIMESTAMP_KINDS.has(event.type) ? plainOfIso(event.created_at) : event.created_at;
  // What JSON.stringify({type, created_at, data}) writes, with the data's text as it is. The time
  // is digits and separators, which JSON writes as they are.
  return `{"type":${quoted(event.type)},"created_at":"${at}","data":${eventData(event, target.domain_id!)}}`;
}
