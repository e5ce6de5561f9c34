import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';

export type BulkState = 'queued' | 'processing' | 'completed' | 'failed';

/** A POST /v1/bulk-email request: its messages are validated and accepted by a job. */
@Entity({ tableName: 'bulk_emails' })
@Index({ properties: ['account', 'created_at'] })
export class BulkEmail extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  /** The token's domain limit when it was sent, applied again by the job. */
  @Property({ type: 'string', length: 32, nullable: true })
  token_domain_id: string | null = null;

  /** The several domains a console user was limited to when it was sent (token_domain_id is null then), applied again by the job. */
  @Property({ type: 'text[]', nullable: true })
  token_domain_ids: string[] | null = null;

  /** The templates a console user was limited to when it was sent, applied again by the job. */
  @Property({ type: 'text[]', nullable: true })
  token_template_ids: string[] | null = null;

  @Property({ type: 'string', length: 20 })
  state: Opt<BulkState> = 'queued';

  /**
   * The request's email objects, kept until the job has accepted them, then cleared. Lazy: the
   * job's per-item transactions load the row without it, or each flush would serialise the whole
   * request again to compare it (bench/worst-inputs.ts, a bulk send of the largest body).
   */
  @Property({ type: 'json', nullable: true, lazy: true })
  payload: unknown[] | null = null;

  @Property({ type: 'integer' })
  total_recipients_count: Opt<number> = 0;

  @Property({ type: 'integer' })
  suppressed_recipients_count: Opt<number> = 0;

  /** `message.<index>` → the suppressed recipients of that message. */
  @Property({ type: 'json', nullable: true })
  suppressed_recipients: Opt<Record<string, unknown>> | null = null;

  /** How many of `payload` the job has accepted (or refused): a retried job resumes there. */
  @Property({ type: 'integer' })
  processed_count: Opt<number> = 0;

  @Property({ type: 'integer' })
  validation_errors_count: Opt<number> = 0;

  @Property({ type: 'json', nullable: true })
  validation_errors: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'json', nullable: true })
  messages_id: string[] | null = null;
}
