import type { EntityManager } from '@mikro-orm/postgresql';
import { sortableId } from '../../lib/ids.js';
import { STAT_SHARDS, type ActivityData, type ActivityType } from './activity.entity.js';
import { ActivityRepository, type ActivityInsert } from './activity.repository.js';
import { isoTimestamp } from '../../lib/timestamps.js';
import { diagnose } from '../../lib/delivery-reason.js';

/** The email an activity belongs to, with what the `activity.*` event payload needs. */
export interface ActivityEmail {
  id: string;
  account_id: string;
  domain_id: string;
  message_id: string;
  subject: string;
  to_email: string;
  tags: string[];
  /**
   * Its message's `purge_after` (ISO), carried by each activity so the activity list leaves out
   * mail past its retention without reading the message (null: kept until purged).
   */
  purge_after: string | null;
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

/** Activity types whose event `meta` names the link and the client that followed it. */
const CLICKS = new Set<ActivityType>(['clicked', 'clicked_unique']);

/** Activity types whose event `meta` carries the receiver's answer, read for people. */
const REFUSALS = new Set<ActivityType>(['deferred', 'soft_bounced', 'hard_bounced']);

/**
 * The `meta` of an `activity.*` payload. SPEC.md's payload has an empty array there, or an object
 * for the kinds that carry details (survey_submitted); a click carries the details tracking
 * already stored (the link's target, the client's IP and user agent) in that object form, and a
 * deferral or bounce the receiver's answer with its diagnosis (lib/delivery-reason.ts: its class,
 * the large providers' requirement it names, what to do). Other kinds keep `[]`, which is what
 * SPEC.md shows for them.
 */
function metaOf(type: ActivityType, data: ActivityData): Record<string, string | null> | [] {
  if (CLICKS.has(type)) return { url: data.url ?? null, ip: data.ip ?? null, user_agent: data.user_agent ?? null };
  if (REFUSALS.has(type)) return { smtp_response: data.smtp_response ?? null, ...diagnose(type, data.smtp_response ?? null) };
  return [];
}

/**
 * What analytics' ua-name counts: SPEC.md groups by browser and operating system under one `name`,
 * so the system goes beside the browser ("Chrome (Windows)") when it is known.
 */
function uaLabel(data: ActivityData): string {
  const name = data.ua_name ?? '';
  return name && data.ua_os && data.ua_os !== 'unknown' ? `${name} (${data.ua_os})` : name;
}

/**
 * Records activities, in one statement and inside the caller's transaction: the activity rows,
 * the daily counts analytics read (activity_stats) and the `activity.*` internal events the
 * webhook engine delivers. Either all of it commits with the state change that caused it, or none
 * of it does; live `activity` subscribers are told after it commits (ActivityRepository.insert).
 */
export async function recordActivities(em: EntityManager, items: NewActivity[]): Promise<string[]> {
  if (!items.length) return [];
  const rows = prepareActivities(items);
  await new ActivityRepository(em).insert(rows);
  return rows.map((r) => r.id);
}

/**
 * The rows recordActivities writes, for a statement that writes them itself (the acceptance of a
 * send embeds activityWrites). Several steps of one email recorded together (sent, delivered) get
 * one millisecond each, so that their order in time is their order in the email's life.
 */
export function prepareActivities(items: NewActivity[]): ActivityInsert[] {
  const step = new Map<string, number>();
  return items.map((it): ActivityInsert => {
    const nth = step.get(it.email.id) ?? 0;
    step.set(it.email.id, nth + 1);
    const at = new Date((it.at ?? new Date()).getTime() + nth);
    // Of its own moment: an activity's id and created_at name the same second, so its week is
    // its moment's and the activity list reads the weeks of its dates alone (Migration20261129030000_partitioned_mail).
    const id = sortableId(16, at.getTime());
    const data = it.data ?? {};
    const event = EVENT_OF[it.type];
    return {
      id,
      account_id: it.email.account_id,
      domain_id: it.email.domain_id,
      email_id: it.email.id,
      type: it.type,
      suppression_reason: it.suppression_reason ?? null,
      purge_after: it.email.purge_after,
      data,
      at: at.toISOString(),
      day: at.toISOString().slice(0, 10),
      tags: [...it.email.tags].sort(),
      country: (data.country && data.country !== 'unknown' ? data.country : '').slice(0, 2),
      ua_name: uaLabel(data).slice(0, 100),
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
            meta: metaOf(it.type, data),
            created_at: isoTimestamp(at),
          }
        : null,
    };
  });
}
