import type { EntityManager } from '@mikro-orm/postgresql';
import { idRange, idsIn } from '../../db/partitions.js';
import { sqlCount, sqlRow, sqlRows, textArray, Where } from '../../db/sql.js';
import { afterCommit } from '../../lib/pubsub.js';
import { activityNotices } from './activity.notice.js';
import { ACTIVITY_TYPES, type ActivityData, type ActivityType } from './activity.entity.js';

/**
 * Activities recorded together share a timestamp (sent and delivered, opened and opened_unique);
 * the type's place in the life of an email (ACTIVITY_TYPES' order) breaks the tie, so the order
 * never depends on ids. `param` is the `$n` that carries LIFECYCLE.
 */
export const lifecycleRank = (param: string): string => `array_position(${param}::text[], a.type::text)`;
export const LIFECYCLE = textArray(ACTIVITY_TYPES);

/** One activity as recordActivities prepares it: the row, its daily-count keys and its event. */
export interface ActivityInsert {
  id: string;
  account_id: string;
  domain_id: string;
  email_id: string;
  type: ActivityType;
  suppression_reason: string | null;
  purge_after: string | null;
  data: ActivityData;
  /** ISO time; `day` is its UTC date. */
  at: string;
  day: string;
  tags: string[];
  country: string;
  ua_name: string;
  ua_type: string;
  shard: number;
  /** The `activity.*` event name, null when webhooks cannot subscribe to the type. */
  event: string | null;
  payload: Record<string, unknown> | null;
}

/**
 * The CTE `name`: prepared activities (ActivityInsert) read from the parameter `param`, a `json`
 * value (not jsonb): json_to_recordset gives a `json` column the very text of its field, so each
 * event's payload reaches domain_events as JSON.stringify wrote it, ready to be spliced into the
 * webhook bodies (engines/webhooks/event.payload.ts deliveryBody).
 */
export const ACTIVITY_INPUT = (name: string, param: string) => `${name} as (
  select * from json_to_recordset(${param}) as x(
    id text, account_id text, domain_id text, email_id text, type text, suppression_reason text,
    purge_after timestamptz, data jsonb, at timestamptz, day date, tags jsonb, country text, ua_name text, ua_type text,
    shard smallint, event text, payload json))`;

/**
 * The CTEs that write the activities of the CTE `input` (ACTIVITY_INPUT): the rows, their daily
 * counts (activity_stats) and their `activity.*` events for webhooks. Other statements (the
 * acceptance of a send) embed them, so an activity is written the same way wherever it comes from.
 */
export function activityWrites(input: string): string {
  return `acts as (
    insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, suppression_reason, purge_after, data)
    select id, at, at, account_id, domain_id, email_id, type, suppression_reason, purge_after, data from ${input}
  ),
  stats as (
    insert into activity_stats (account_id, day, hour, domain_id, type, tags, country, ua_name, ua_type, shard, count)
    select account_id, day, extract(hour from at at time zone 'UTC')::smallint, domain_id, type,
           array(select jsonb_array_elements_text(tags)), country, ua_name, ua_type, shard, count(*)
      from ${input} group by account_id, day, 3, domain_id, type, tags, country, ua_name, ua_type, shard
      -- Counts are taken in key order: two statements counting the same keys wait, never deadlock.
      order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    on conflict (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard, hour)
      do update set count = activity_stats.count + excluded.count
  ),
  evts as (
    insert into domain_events (id, account_id, domain_id, type, payload, created_at)
    select id, account_id, domain_id, event, payload, at from ${input} where event is not null
  )`;
}

/** An activity with its email, message, recipient and the template's content. */
export interface ActivityRow {
  id: string;
  domain_id: string;
  type: string;
  suppression_reason: string | null;
  created_at: unknown;
  updated_at: unknown;
  e_id: string;
  from_email: string;
  subject: string;
  text: string | null;
  html: string | null;
  status: string;
  tags: string[] | null;
  e_created_at: unknown;
  e_updated_at: unknown;
  r_id: string;
  r_email: string;
  r_created_at: unknown;
  r_updated_at: unknown;
  r_deleted_at: unknown;
  /** The receiver's answer of a bounce or deferral (the page's statement leaves it out: responsesOf). */
  smtp_response?: string | null;
  /** The TLS policy a delivery went under (MX delivery), likewise. */
  tls_policy?: string | null;
}

const SELECT = `select a.id, a.domain_id, a.type, a.suppression_reason, a.created_at, a.updated_at, a.data->>'smtp_response' as smtp_response, a.data->>'tls_policy' as tls_policy,
    e.id as e_id, m.from_email, e.subject,
    -- Bodies dropped after delivery (track_content off) are not shown, not even the template's.
    case when m.content_cleared_at is null then coalesce(m.text, tr.text, t.text) end as text,
    case when m.content_cleared_at is null then coalesce(m.html, tr.html, t.html) end as html,
    e.status, e.tags, e.created_at as e_created_at, e.updated_at as e_updated_at,
    r.id as r_id, r.email as r_email, r.created_at as r_created_at, r.updated_at as r_updated_at, r.deleted_at as r_deleted_at
  from activities a
  join emails e on e.id = a.email_id and (a.purge_after is null or a.purge_after > now())
  join messages m on m.id = e.message_id
  join recipients r on r.id = e.recipient_id
  left join templates t on t.id = m.template_id and t.account_id = m.account_id
  -- What was sent: the translation in the send's language when there is one (as delivery reads it).
  left join template_translations tr on tr.template_id = t.id and tr.language = m.language`;

/*
 * A page of one domain's activities, with the domain's ownership checked in the same statement
 * (no row at all when the domain is not the account's; one row of nulls beside it for an empty
 * page), so the list is one round trip. The page's ids come from the (domain_id, created_at)
 * index first, walked newest first with the offset skipped there, and only those rows are joined
 * to their email, message, recipient and template: a deep page never joins the rows it skips.
 * The statement is a function (migration 20261126110000_activity_domain_page; its latest version,
 * reading only the weeks of its dates, in 20261129030000_partitioned_mail), whose plan is
 * always the generic one: as a prepared statement here, its LIMIT and OFFSET parameters made
 * PostgreSQL plan it afresh on every call once a domain held a million activities.
 */
const DOMAIN_PAGE = 'select * from activity_domain_page($1, $2, $3, $4, $5, $6, $7, $8, $9)';

/** What the list reads: a domain's activities in a time range, of some types or all, some types hidden. */
export interface DomainPageFilter {
  accountId: string;
  domainId: string;
  from: Date;
  /** Exclusive. */
  before: Date;
  /** Empty: every type. */
  types: readonly string[];
  hidden: readonly string[];
}

/** Which activities of an account a read by ids wants (a live stream's); unset parts do not filter. */
export interface ActivityFilter {
  accountId: string;
  /** The domains a limited caller reaches (one or several); unset or null: all of the account's. */
  domainIds?: readonly string[] | null;
  ids?: string[];
  /** Types the reader may not see (a free plan's). */
  hidden?: readonly ActivityType[];
}

function where(f: ActivityFilter): Where {
  const w = new Where();
  if (f.ids) w.add('a.id = any(?::text[])', textArray(f.ids));
  if (f.domainIds) w.add('a.domain_id = any(?::text[])', textArray(f.domainIds));
  w.add('a.account_id = ?', f.accountId);
  if (f.hidden?.length) w.add('a.type <> all(?::text[])', textArray(f.hidden));
  return w;
}

export class ActivityRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * One statement: the activity rows, the daily counts analytics read (activity_stats) and the
   * `activity.*` internal events the webhook engine delivers. Live `activity` subscribers are told
   * once, and only if, the transaction commits (afterCommit: batched, never inside it).
   */
  async insert(rows: ActivityInsert[]): Promise<void> {
    await sqlRows(this.em, `with ${ACTIVITY_INPUT('input', '$1::json')}, ${activityWrites('input')} select 1`, [JSON.stringify(rows)]);
    for (const [topic, notice] of activityNotices(rows)) afterCommit(this.em, topic, notice);
  }

  /** The account's plan, which decides the activity types it sees. */
  async planOf(accountId: string): Promise<string | null> {
    const row = await sqlRow<{ plan: string }>(this.em, 'select plan from accounts where id = $1', [accountId]);
    return row?.plan ?? null;
  }

  /**
   * Newest first (the list's page), in one statement (DOMAIN_PAGE); null when the domain is not
   * the account's.
   */
  async domainPage(f: DomainPageFilter, page: { limit: number; offset: number }): Promise<ActivityRow[] | null> {
    const values = [LIFECYCLE, f.domainId, f.accountId, f.from, f.before, textArray(f.types), textArray(f.hidden), page.limit, page.offset];
    const rows = await sqlRows<ActivityRow & { found: string }>(this.em, { name: 'activity.domain_page', text: DOMAIN_PAGE }, values);
    if (!rows.length) return null;
    return rows[0].id === null ? [] : rows;
  }

  /** The receivers' answers these activities recorded, by id (their weeks only: idRange). */
  async responsesOf(ids: string[]): Promise<Map<string, { smtp_response: string | null; tls_policy: string | null }>> {
    const rows = await sqlRows<{ id: string; smtp_response: string | null; tls_policy: string | null }>(
      this.em,
      `select id, data->>'smtp_response' as smtp_response, data->>'tls_policy' as tls_policy from activities where ${idsIn('id', '$1::text[]', '$2', '$3')}`,
      [textArray(ids), ...idRange(ids)],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Oldest first: in the order they happened (a live stream's event). */
  inOrder(filter: ActivityFilter): Promise<ActivityRow[]> {
    const w = where(filter);
    const rank = lifecycleRank(w.param(LIFECYCLE));
    return sqlRows<ActivityRow>(this.em, `${SELECT} where ${w.sql} order by a.created_at, ${rank}, a.id`, w.params);
  }

  async get(id: string, accountId: string): Promise<ActivityRow | null> {
    return sqlRow<ActivityRow>(this.em, `${SELECT} where a.id = $1 and a.account_id = $2`, [id, accountId]);
  }

  /** Hourly housekeeping: daily counts older than analytics keep (6 months, with a month to spare). */
  async purgeStats(): Promise<void> {
    await sqlCount(this.em, `delete from activity_stats where day < (now() - interval '7 months')::date`);
  }
}
