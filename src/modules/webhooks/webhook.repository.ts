import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../../config/plans.js';
import { idsFrom } from '../../db/partitions.js';
import { sqlCount, sqlRow, sqlRows, textArray } from '../../db/sql.js';
import { DELIVERY, type DeliveryState, type WebhookKind } from './webhook.entity.js';

/*
 * `w`: the webhooks of the deliveries in `rows` that still exist, locked (key share) until the
 * statement's transaction ends, once each. Every statement that writes deliveries joins them:
 * there is no foreign key (migration Migration20261126011000_webhook_deliveries_cascade), and the
 * lock makes a concurrent delete of a webhook wait for these writes and then delete them too (its
 * trigger), or, if it came first, leaves its deliveries unwritten.
 */
export const LOCK_WEBHOOKS = (rows: string) =>
  `w as (select id from webhooks where id in (select webhook_id from ${rows}) for key share)`;

/** What a replay queues again (one text[] parameter). */
export const REPLAYABLE: readonly DeliveryState[] = [DELIVERY.failed, DELIVERY.gaveUp];

/** A delivery as its detail shows it. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  body: string;
  created_at: Date;
}

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
  secret_enc: string;
  events: string[];
  /** As the ORM's pool reads a timestamptz: PostgreSQL's text (`2026-11-26 09:00:00.123+00`). */
  created_at: string;
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

/** One attempt's log row, timestamps as ISO text. */
interface AttemptRow {
  id: string;
  delivery_id: string;
  attempted_at: string;
  status: number | null;
  duration_ms: number;
  response_excerpt: string | null;
}

export interface FailedRow extends AttemptRow {
  error: string | null;
  state: DeliveryState;
  next_attempt_at: string | null;
}

/** Where a delivery stands, as its retry schedule needs it. */
export interface DeliveryProgress {
  id: string;
  attempts: number;
  created_at: Date;
}

export interface NewDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  type: string;
  body: string;
}

/**
 * The webhook engine's SQL on the entity manager (its transactions): recording failed attempts,
 * counting failures, replaying, an inbound route's deliveries. The hot statements (claim, record
 * successes, dispatch) are in dispatch.repository.ts. States and kinds come from
 * webhook.entity.ts and go in as parameters, never as literals in the text.
 */
export class WebhookRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * The deliveries of one webhook's failed attempts, locked for the caller's transaction (which
   * holds the webhook row too), with what the retry schedule needs.
   */
  lockDeliveries(ids: string[]): Promise<DeliveryProgress[]> {
    return sqlRows<DeliveryProgress>(
      this.em,
      `select id, attempts, created_at from webhook_deliveries where id = any($1::text[]) for update`,
      [textArray(ids)],
    );
  }

  /** Failed attempts logged and their deliveries moved on (state and next try decided by the caller); returns the deliveries written. */
  async recordFailed(rows: FailedRow[]): Promise<Set<string>> {
    if (!rows.length) return new Set();
    const written = await sqlRows<{ delivery_id: string }>(
      this.em,
      `with x as (
         select * from jsonb_to_recordset($1::jsonb)
           as x(id text, delivery_id text, attempted_at timestamptz, status int, duration_ms int, response_excerpt text,
                error text, state text, next_attempt_at timestamptz)
       ),
       a as (
         insert into webhook_attempts (id, webhook_id, delivery_id, type, attempted_at, success, status, duration_ms, response_excerpt, error)
         select x.id, d.webhook_id, d.id, d.type, x.attempted_at, false, x.status, x.duration_ms, x.response_excerpt, x.error
           from x join webhook_deliveries d on d.id = x.delivery_id and ${idsFrom('d.id', 'x', 'delivery_id')}
         returning delivery_id
       ),
       u as (
         update webhook_deliveries d set state = x.state, attempts = d.attempts + 1, last_status = x.status,
                next_attempt_at = x.next_attempt_at, updated_at = now()
           from x where d.id = x.delivery_id and ${idsFrom('d.id', 'x', 'delivery_id')}
       )
       select delivery_id from a`,
      [JSON.stringify(rows)],
    );
    return new Set(written.map((r) => r.delivery_id));
  }

  /** One delivery by id (its body included), or null. */
  delivery(id: string): Promise<DeliveryRow | null> {
    return sqlRow<DeliveryRow>(
      this.em,
      'select id, webhook_id, type, state, attempts, last_status, body, created_at from webhook_deliveries where id = $1',
      [id],
    );
  }

  /** A failed or given-up delivery queued again from scratch (as a replay does); false when it is in another state by now. */
  async retry(id: string): Promise<boolean> {
    const now = new Date().toISOString();
    const n = await sqlCount(
      this.em,
      `update webhook_deliveries set state = $1, attempts = 0, next_attempt_at = $2::timestamptz, updated_at = $2::timestamptz
        where id = $3 and state = any($4::text[])`,
      [DELIVERY.pending, now, id, textArray(REPLAYABLE)],
    );
    return n > 0;
  }

  /** The latest successful test request of a webhook (a create or an update sends one). */
  async lastPassedTest(webhookId: string): Promise<Date | null> {
    const row = await sqlRow<{ at: Date | null }>(
      this.em,
      `select max(attempted_at) as at from webhook_attempts where webhook_id = $1 and delivery_id is null and success`,
      [webhookId],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Failed delivery attempts (tests aside) of a webhook after `since`. */
  async failuresSince(webhookId: string, since: Date): Promise<number> {
    const row = await sqlRow<{ n: number }>(
      this.em,
      `select count(*)::int as n from webhook_attempts
        where webhook_id = $1 and delivery_id is not null and not success and attempted_at > $2::timestamptz`,
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
    return sqlCount(
      this.em,
      `update webhook_deliveries set state = $1, attempts = 0, next_attempt_at = $2::timestamptz, updated_at = $2::timestamptz
        where webhook_id = $3 and state = any($4::text[])
          and created_at >= $5::timestamptz and created_at <= $6::timestamptz`,
      [DELIVERY.pending, now, webhookId, textArray(REPLAYABLE), since.toISOString(), until.toISOString()],
    );
  }

  /**
   * Pending deliveries (an inbound route's or SMS route's), due at `due`: now, or a lease's end
   * when the receiving process makes the first attempt itself. One per webhook and event, so a
   * re-run writes nothing twice. Those of a webhook deleted meanwhile are not written
   * (LOCK_WEBHOOKS).
   */
  async insertDeliveries(rows: NewDelivery[], now: string, due = now): Promise<void> {
    await sqlCount(
      this.em,
      `with x as (select * from jsonb_to_recordset($1::jsonb) as x(id text, webhook_id text, event_id text, type text, body text)),
       ${LOCK_WEBHOOKS('x')}
       insert into webhook_deliveries (id, webhook_id, event_id, type, body, state, attempts, next_attempt_at, created_at, updated_at)
       select x.id, x.webhook_id, x.event_id, x.type, x.body, $2, 0, $3::timestamptz, $4::timestamptz, $4::timestamptz
         from x join w on w.id = x.webhook_id
       on conflict (id) do nothing`,
      [JSON.stringify(rows), DELIVERY.pending, due, now],
    );
  }
}
