import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import type { VerificationKind, VerificationStatus } from './verification.statuses.js';

/**
 * One checked address. Single, async and list verifications share this row so the check engine
 * and the job that runs it stay one; a list's addresses carry its id in `list_id`.
 */
@Entity({ tableName: 'email_verifications' })
@Index({ properties: ['account', 'created_at'] })
export class EmailVerification extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'string', length: 10 })
  kind: Opt<VerificationKind> = 'async';

  /** The owning verification list, when kind is `list` (the list table comes with the lists). */
  @Property({ type: 'string', length: 32, nullable: true })
  @Index()
  list_id: string | null = null;

  @Property({ type: 'string', length: 320 })
  address!: string;

  @Property({ type: 'string', length: 20 })
  status: Opt<VerificationStatus> = 'queued';

  /** A SPEC.md result value once checked. */
  @Property({ type: 'string', length: 20, nullable: true })
  result: string | null = null;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  /** The corrected address when the result is `typo`. */
  @Property({ type: 'string', length: 320, nullable: true })
  suggestion: string | null = null;

  /** The MX host that was probed, if any. */
  @Property({ type: 'string', length: 255, nullable: true })
  mx: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  verified_at: Date | null = null;
}
