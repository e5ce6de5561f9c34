import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Email } from '../messages/message.entity.js';

/** The activity types of SPEC.md ("Activity"). */
export const ACTIVITY_TYPES = [
  'queued',
  'sent',
  'delivered',
  'soft_bounced',
  'hard_bounced',
  'deferred',
  'opened',
  'opened_unique',
  'clicked',
  'clicked_unique',
  'unsubscribed',
  'spam_complaints',
  'survey_opened',
  'survey_submitted',
  'suppressed',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** What a tracked interaction recorded. */
export interface ActivityData {
  ip?: string;
  user_agent?: string;
  ua_name?: string;
  ua_os?: string;
  ua_type?: string;
  country?: string;
  url?: string;
  smtp_response?: string;
  /** sent and delivered with MAIL_TRANSPORT=mx: the TLS policy the session went under (dane, mta-sts, none). */
  tls_policy?: string;
}

/** One step in an email's life (SPEC.md "Activity"). Read by domain and time, or by email. */
@Entity({ tableName: 'activities' })
@Index({ properties: ['domain_id', 'created_at'] })
@Index({ properties: ['account_id', 'created_at'] })
export class Activity extends BaseEntity {
  @Property({ type: 'string', length: 32 })
  account_id!: string;

  @Property({ type: 'string', length: 32 })
  domain_id!: string;

  // No foreign key: the mail tables are partitioned by week, and a trigger deletes an email's
  // activities with it (Migration20261129030000_partitioned_mail).
  @ManyToOne(() => Email, { createForeignKeyConstraint: false })
  @Index()
  email!: Email;

  @Property({ type: 'string', length: 30 })
  type!: ActivityType;

  @Property({ type: 'string', length: 30, nullable: true })
  suppression_reason: string | null = null;

  /** Its message's `purge_after` (activity.record.ts ActivityEmail): the list leaves it out once past. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  purge_after: Date | null = null;

  @Property({ type: 'json' })
  data: Opt<ActivityData> = {};
}

/**
 * Daily counts that analytics read instead of scanning activity. Kept up to date in the same
 * statement that records the activity. One row per combination (and shard), so a message with
 * several tags is counted once when a filter matches any of them.
 */
@Entity({ tableName: 'activity_stats' })
@Unique({ name: 'activity_stats_key', properties: ['account_id', 'day', 'domain_id', 'type', 'tags', 'country', 'ua_name', 'ua_type', 'shard', 'hour'] })
export class ActivityStat {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string', length: 32 })
  account_id!: string;

  @Property({ type: 'string', length: 32 })
  domain_id!: string;

  @Property({ type: 'date' })
  day!: string;

  /** The UTC hour of `day` (0-23): analytics group by days of a time zone the caller names. */
  @Property({ type: 'smallint' })
  hour: Opt<number> = 0;

  @Property({ type: 'string', length: 30 })
  type!: string;

  /** The message's tags, sorted. */
  @Property({ type: 'text[]' })
  tags: Opt<string[]> = [];

  /** Two-letter code, or '' when not known or not an interaction. */
  @Property({ type: 'string', length: 2 })
  country: Opt<string> = '';

  @Property({ type: 'string', length: 100 })
  ua_name: Opt<string> = '';

  @Property({ type: 'string', length: 20 })
  ua_type: Opt<string> = '';

  /**
   * Concurrent sends of one domain would all add to the same row and wait for each other's
   * commit; each email adds to one of STAT_SHARDS rows instead. Readers sum, so it is invisible.
   */
  @Property({ type: 'smallint' })
  shard: Opt<number> = 0;

  @Property({ type: 'integer' })
  count: Opt<number> = 0;
}

export const STAT_SHARDS = 8;
