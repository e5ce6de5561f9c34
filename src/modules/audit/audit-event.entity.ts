import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../../lib/ids.js';
import { Account } from '../accounts/account.entity.js';

/** Who made a change: an API token, the instance operator, or a person accepting an invitation. */
export type ActorType = 'token' | 'operator' | 'invitee';

/**
 * One recorded change to a credential or to who has access (tokens, SMTP users, webhooks, users).
 * Rows are written in the transaction of the change and never updated. They keep no reference
 * to the actor or the subject, which may be deleted later; the names are copied instead.
 */
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['account', 'created_at'] })
@Index({ properties: ['account', 'subject_id'] })
export class AuditEvent {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'string', length: 20 })
  actor_type!: ActorType;

  /** The token id, or the id of the user an accepted invitation created; null for the operator. */
  @Property({ type: 'string', length: 64, nullable: true })
  actor_id: string | null = null;

  /** The token's name, the invitee's email, or `operator`, as they were at the time. */
  @Property({ type: 'string', length: 320, nullable: true })
  actor_name: string | null = null;

  @Property({ type: 'string', length: 40 })
  action!: string;

  @Property({ type: 'string', length: 20 })
  subject_type!: string;

  @Property({ type: 'string', length: 32 })
  subject_id!: string;

  /** The domain the subject belongs to, when it belongs to exactly one: what domain-limited tokens may read. */
  @Property({ type: 'string', length: 32, nullable: true })
  domain_id: string | null = null;

  /** Field name → `{from?, to?}`; values only for fields on the recorder's allowlist. */
  @Property({ type: 'json' })
  changes: Opt<Record<string, { from?: unknown; to?: unknown }>> = {};

  @Property({ type: 'string', length: 45, nullable: true })
  ip: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();
}
