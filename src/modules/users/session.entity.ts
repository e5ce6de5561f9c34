import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { AccountUser } from './user.entity.js';

/**
 * A console login. The cookie holds a random secret; only its sha256 is stored (the id), so a
 * read of this table logs nobody in. Ends when idle for SESSION_IDLE_MINUTES, SESSION_MAX_HOURS
 * after login, on logout, on a password change or reset (the user's other sessions), and with the user.
 */
@Entity({ tableName: 'user_sessions' })
export class UserSession {
  @PrimaryKey({ type: 'string', length: 64 })
  id!: string;

  @ManyToOne(() => AccountUser, { deleteRule: 'cascade' })
  @Index()
  user!: AccountUser;

  /** Sent back in X-CSRF-Token on every state-changing request the cookie authenticates. */
  @Property({ type: 'string', length: 64 })
  csrf_token!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  last_seen_at: Opt<Date> = new Date();
}
