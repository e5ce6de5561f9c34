import type { EntityManager } from '@mikro-orm/postgresql';
import { CHANNEL } from '../../lib/pubsub.js';
import type { Plan } from '../accounts/plans.js';
import type { LoggedAttempt } from './log.mapper.js';
import type { EventRow } from './payload.js';
import { DELIVERY, WEBHOOK_KIND, type DeliveryState, type WebhookKind } from './webhook.entity.js';

/** A text[] parameter of data (ids, types), sent as JSON so no value needs escaping and an empty list stays a list. */
const TEXT_ARRAY = 'array(select jsonb_array_elements_text(?::jsonb))';
const textArray = (values: readonly string[]) => JSON.stringify(values);

/*
 * A constant set of states or kinds is a plain array parameter in `in (?)`: MikroORM writes it
 * as its quoted items, so the server sees the same text as with literals (and plans it alike).
 */
/** What a replay queues again. */
const REPLAYABLE: readonly DeliveryState[] = [DELIVERY.failed, DELIVERY.gaveUp];
/** The kinds the dispatcher writes deliveries for; inbound-route targets get theirs from the route. */
const DISPATCHED: readonly WebhookKind[] = [WEBHOOK_KIND.email, WEBHOOK_KIND.sms];

/** What a delivery round needs of a claimed delivery and its webhook. */
export interface Claimed {
  id: string;
  webhook_id: string;
  type: string;
  body: string;
  url: string;
  secret_enc: string;
  account_id: string;
  domain_id: string | null;
}

/** A webhook as the dispatcher matches events against it. */
export interface WebhookRow {
  id: string;
  account_id: string;
  kind: WebhookKind;
  domain_id: string | null;
  sms_number_id: string | null;
  url: string;
  events: string[];
  created_at: Date;
  plan: Plan;
}

/** Where a batch of events may go: what the candidate webhooks must match one of. */
export interface EventReach {
  types: string[];
  domains: string[];
  accounts: string[];
  smsNumbers: string[];
  /** Some event belongs to no account (a maintenance window): every email webhook is a candidate. */
  platformWide: boolean;
}

export interface NewDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  body: string;
}

/**
 * The webhook engine's SQL: claiming and recording deliveries, turning events into deliveries,
 * counting failures, replaying. States and kinds come from webhook.entity.ts and go in as
 * parameters, never as literals in the text.
 */
export class WebhookRepository {
  constructor(private readonly em: EntityManager) {}

  /** Due deliveries of enabled, unpaused webhooks, oldest due first, leased to the caller until `leaseUntil`. */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Claimed[]> {
    return this.em.execute<Claimed[]>(
      `update webhook_deliveries d set next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
         from webhooks w
        where w.id = d.webhook_id and d.id in (
          select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
           where d2.state = ? and d2.next_attempt_at <= ?::timestamptz
             and w2.enabled and w2.paused_reason is null
           order by d2.next_attempt_at limit ? for update of d2 skip locked)
        returning d.id, d.webhook_id, d.type, d.body, w.url, w.secret_enc, w.account_id, w.domain_id`,
      [leaseUntil.toISOString(), now.toISOString(), DELIVERY.pending, now.toISOString(), limit],
    );
  }

  /**
   * A successful attempt in one statement: the attempt logged, the delivery done, and `notice`
   * (log.notice.ts) sent when it commits. Nothing is written nor sent if the delivery is gone.
   */
  async recordDelivered(deliveryId: string, attempt: LoggedAttempt, notice: string): Promise<void> {
    await this.em.execute(
      `with a as (
         insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
         select ?, d.webhook_id, d.id, d.type, ?::timestamptz, true, ?, ?, ?, null from webhook_deliveries d where d.id = ?
         returning id
       ),
       u as (
         update webhook_deliveries set state = ?, attempts = attempts + 1, last_status = ?,
                next_attempt_at = null, updated_at = now() where id = ?
       )
       select pg_notify(?, ?) from a`,
      [
        attempt.id, attempt.attempted_at.toISOString(), attempt.status, attempt.duration_ms, attempt.response_excerpt, deliveryId,
        DELIVERY.delivered, attempt.status, deliveryId,
        CHANNEL, notice,
      ],
    );
  }

  /** Sends a NOTIFY on the pubsub channel, delivered when (and only if) the transaction commits. */
  async notifyOnCommit(text: string): Promise<void> {
    await this.em.execute('select pg_notify(?, ?)', [CHANNEL, text]);
  }

  /** The latest successful test request of a webhook (a create or an update sends one). */
  async lastPassedTest(webhookId: string): Promise<Date | null> {
    const [row] = await this.em.execute<{ at: Date | null }[]>(
      `select max(attempted_at) as at from webhook_attempts where webhook_id = ? and delivery_id is null and success`,
      [webhookId],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Failed delivery attempts (tests aside) of a webhook after `since`. */
  async failuresSince(webhookId: string, since: Date): Promise<number> {
    const [row] = await this.em.execute<{ n: number }[]>(
      `select count(*)::int as n from webhook_attempts
        where webhook_id = ? and delivery_id is not null and not success and attempted_at > ?::timestamptz`,
      [webhookId, since.toISOString()],
    );
    return row?.n ?? 0;
  }

  /**
   * Failed and given-up deliveries of a webhook created in the window, queued again from scratch
   * (same id and body). Returns how many.
   */
  async replay(webhookId: string, since: Date, until: Date): Promise<number> {
    const now = new Date().toISOString();
    const rows = await this.em.execute<{ id: string }[]>(
      `update webhook_deliveries set state = ?, attempts = 0, next_attempt_at = ?::timestamptz, updated_at = ?::timestamptz
        where webhook_id = ? and state in (?)
          and created_at >= ?::timestamptz and created_at <= ?::timestamptz
        returning id`,
      [DELIVERY.pending, now, now, webhookId, REPLAYABLE, since.toISOString(), until.toISOString()],
    );
    return rows.length;
  }

  /** Undispatched events, oldest first, locked (skip locked, so several workers share the backlog). */
  lockUndispatched(limit: number): Promise<EventRow[]> {
    return this.em.execute<EventRow[]>(
      `select id, account_id, domain_id, type, payload, created_at from domain_events
        where dispatched_at is null order by created_at, id limit ? for update skip locked`,
      [limit],
    );
  }

  /** Enabled, unpaused email and SMS webhooks subscribed to one of the types and placed where one of the events is. */
  candidates(reach: EventReach): Promise<WebhookRow[]> {
    return this.em.execute<WebhookRow[]>(
      `select w.id, w.account_id, w.kind, w.domain_id, w.sms_number_id, w.url, w.events, w.created_at, a.plan
         from webhooks w join accounts a on a.id = w.account_id
        where w.enabled and w.paused_reason is null and w.kind in (?) and w.events && ${TEXT_ARRAY}
          and (w.domain_id = any(${TEXT_ARRAY}) or w.account_id = any(${TEXT_ARRAY})
               or w.sms_number_id = any(${TEXT_ARRAY}) or ?::boolean)`,
      [
        DISPATCHED,
        textArray(reach.types),
        textArray(reach.domains),
        textArray(reach.accounts),
        textArray(reach.smsNumbers),
        reach.platformWide,
      ],
    );
  }

  /** Pending deliveries due at `now`; one per webhook and event, so a re-run writes nothing twice. */
  async insertDeliveries(rows: NewDelivery[], now: string): Promise<void> {
    await this.em.execute(
      `insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
       select id, webhook_id, event_id, type, body, ?, 0, ?::timestamptz, ?::timestamptz, ?::timestamptz
         from jsonb_to_recordset(?::jsonb) as x(id text, webhook_id text, event_id text, type text, body text)
       on conflict (webhook_id, event_id) do nothing`,
      [DELIVERY.pending, now, now, now, JSON.stringify(rows)],
    );
  }

  async markDispatched(eventIds: string[], now: string): Promise<void> {
    await this.em.execute(`update domain_events set dispatched_at = ?::timestamptz where id = any(${TEXT_ARRAY})`, [now, textArray(eventIds)]);
  }
}
