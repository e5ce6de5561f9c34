import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import type { ListStatus } from './verification.statuses.js';

/**
 * An email verification list. Its addresses are `email_verifications` rows (kind `list`) carrying
 * its id; each row's result is stored as it completes, so a crashed run resumes where it stopped.
 */
@Entity({ tableName: 'email_verification_lists' })
@Index({ properties: ['account', 'created_at'] })
export class EmailVerificationList extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'string', length: 255 })
  name!: string;

  /** How the addresses arrived; the API is the only source this service has. */
  @Property({ type: 'string', length: 20 })
  source: Opt<string> = 'api';

  @Property({ type: 'string', length: 20 })
  status: Opt<ListStatus> = 'created';

  @Property({ type: 'integer' })
  total: Opt<number> = 0;

  /** Credits reserved at start (one per address), so the refund at the end matches what was taken. */
  @Property({ type: 'integer' })
  credits_reserved: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  verification_started: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  verification_ended: Date | null = null;

  /**
   * The job chain allowed to work on the list: each start or resume begins a new one, and a run
   * of an older chain (still queued from before a pause) ends without touching anything.
   */
  @Property({ type: 'string', length: 32, nullable: true })
  run_id: string | null = null;
}
