import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { CHANNEL } from '../../lib/pubsub.js';
import { STAT_SHARDS, type ActivityData, type ActivityType } from './activity.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

/** The email an activity belongs to, with what the `activity.*` event payload needs. */
export interface ActivityEmail {
  id: string;
  account_id: string;
  domain_id: string;
  message_id: string;
  subject: string;
  to_email: string;
  tags: string[];
}

export interface NewActivity {
  email: ActivityEmail;
  type: ActivityType;
  suppression_reason?: string | null;
  data?: ActivityData;
  at?: Date;
}

/** A stable spread of emails over the rollup's shards. */
function shardOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(h) % STAT_SHARDS;
}

/** Activity types a webhook can subscribe to, by event name (SPEC.md "Email event kinds"). */
const EVENT_OF: Partial<Record<ActivityType, string>> = {
  sent: 'activity.sent',
  delivered: 'activity.delivered',
  soft_bounced: 'activity.soft_bounced',
  hard_bounced: 'activity.hard_bounced',
  deferred: 'activity.deferred',
  opened: 'activity.opened',
  opened_unique: 'activity.opened_unique',
  clicked: 'activity.clicked',
  clicked_unique: 'activity.clicked_unique',
  unsubscribed: 'activity.unsubscribed',
  spam_complaints: 'activity.spam_complaint',
  survey_opened: 'activity.survey_opened',
  survey_submitted: 'activity.survey_submitted',
};

/**
 * Records activities, in one statement and inside the caller's transaction: the activity rows,
 * the daily counts analytics read (activity_stats), the `activity.*` internal events the
 * webhook engine delivers, and a NOTIFY for live `activity` subscriptions. Either all of it
 * commits with the state change that caused it, or none of it does.
 */
export async function recordActivities(em: EntityManager, items: NewActivity[]): Promise<string[]> {
  if (!items.length) return [];
  // Several steps of one email recorded together (sent, delivered) get one millisecond each, so
  // that their order in time is their order in the email's life.
  const step = new Map<string, number>();
  const rows = items.map((it) => {
    const nth = step.get(it.email.id) ?? 0;
    step.set(it.email.id, nth + 1);
    const at = new Date((it.at ?? new Date()).getTime() + nth);
    const id = newId();
    const data = it.data ?? {};
    const event = EVENT_OF[it.type];
    return {
      id,
      account_id: it.email.account_id,
      domain_id: it.email.domain_id,
      email_id: it.email.id,
      type: it.type,
      suppression_reason: it.suppression_reason ?? null,
      data,
      at: at.toISOString(),
      day: at.toISOString().slice(0, 10),
      tags: [...it.email.tags].sort(),
      country: (data.country && data.country !== 'unknown' ? data.country : '').slice(0, 2),
      ua_name: (data.ua_name ?? '').slice(0, 100),
      ua_type: (data.ua_type ?? '').slice(0, 20),
      shard: shardOf(it.email.id),
      event: event ?? null,
      payload: event
        ? {
            id,
            domain_id: it.email.domain_id,
            message_id: it.email.message_id,
            email_id: it.email.id,
            type: it.type,
            subject: it.email.subject,
            email: it.email.to_email,
            tags: it.email.tags,
            meta: [],
            created_at: isoTimestamp(at),
          }
        : null,
    };
  });
  await em.execute(
    `with input as (
       select * from jsonb_to_recordset(?::jsonb) as x(
         id text, account_id text, domain_id text, email_id text, type text, suppression_reason text,
         data jsonb, at timestamptz, day date, tags jsonb, country text, ua_name text, ua_type text,
         shard smallint, event text, payload jsonb)
     ),
     acts as (
       insert into activities (id, created_at, updated_at, account_id, domain_id, email_id, type, suppression_reason, data)
       select id, at, at, account_id, domain_id, email_id, type, suppression_reason, data from input
     ),
     stats as (
       insert into activity_stats (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard, count)
       select account_id, day, domain_id, type, array(select jsonb_array_elements_text(tags)), country, ua_name, ua_type, shard, count(*)
         from input group by account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard
       on conflict (account_id, day, domain_id, type, tags, country, ua_name, ua_type, shard)
         do update set count = activity_stats.count + excluded.count
     ),
     evts as (
       insert into domain_events (id, account_id, domain_id, type, payload, created_at)
       select id, account_id, domain_id, event, payload, at from input where event is not null
     )
     -- Live subscribers (any process) hear of it when, and only if, the transaction commits.
     select pg_notify('${CHANNEL}', json_build_object(
              'topic', 'activity:' || account_id,
              'detail', json_build_object('domain_id', domain_id, 'ids', json_agg(id)))::text)
       from input group by account_id, domain_id`,
    [JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}
