import type { Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { sortableId } from '../../lib/ids.js';

/** A message the `capture` transport kept instead of sending. */
@Entity({ tableName: 'captured_mails' })
@Index({ properties: ['account_id', 'created_at'] })
export class CapturedMail {
  @PrimaryKey({ type: 'string', length: 32 })
  /** Sortable: captured mail is partitioned by week of its ids (db/partitions.ts). */
  id: Opt<string> = sortableId();

  @Property({ type: 'string', length: 320 })
  @Index()
  to!: string;

  @Property({ type: 'string', length: 320 })
  from!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  text: Opt<string> = '';

  @Property({ type: 'text', nullable: true })
  html: string | null = null;

  @Property({ type: 'string', length: 64 })
  kind: Opt<string> = 'system';

  /** For a customer's email: its id in the email log, and the whole signed MIME message. */
  @Property({ type: 'string', length: 32, nullable: true })
  @Index()
  email_id: string | null = null;

  @Property({ type: 'text', nullable: true })
  raw: string | null = null;

  /** For mail the service wrote about an account (OutgoingMail.account_id): whose, and which domain's, it is. */
  @Property({ type: 'string', length: 32, nullable: true })
  account_id: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  domain_id: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();
}
