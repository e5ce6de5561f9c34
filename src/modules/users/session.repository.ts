import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../../config/plans.js';
import { sqlCount, sqlRow, sqlRows, textArray } from '../../db/sql.js';

/** A live session with its user and the account's plan: what a request authenticated by it needs. */
export interface SessionRow {
  csrf_token: string;
  last_seen_at: Date;
  user_id: string;
  account_id: string;
  email: string;
  name: string;
  role: string;
  permissions: string[];
  domain_ids: string[];
  template_ids: string[];
  requires_periodic_password_change: boolean;
  password_changed_at: Date | null;
  user_created_at: Date;
  plan: Plan;
}

/** The SQL of console sessions (session.service.ts). */
export class SessionRepository {
  constructor(private readonly em: EntityManager) {}

  /** One statement: the session if it is neither idle too long nor too old, its user and plan. */
  async live(idHash: string, idleMinutes: number, maxHours: number): Promise<SessionRow | null> {
    return sqlRow<SessionRow>(
      this.em,
      `select s.csrf_token, s.last_seen_at, u.id as user_id, u.account_id, u.email, u.name, u.role, u.permissions,
              u.domain_ids, u.template_ids, u.requires_periodic_password_change, u.password_changed_at,
              u.created_at as user_created_at, a.plan
         from user_sessions s
         join account_users u on u.id = s.user_id
         join accounts a on a.id = u.account_id
        where s.id = $1
          and s.last_seen_at > now() - make_interval(mins => $2)
          and s.created_at > now() - make_interval(hours => $3)`,
      [idHash, idleMinutes, maxHours],
    );
  }

  /**
   * The sessions of these ids that are still live (neither logged out nor idle or old past the
   * limits `live` applies), with their users as they are now: for open live streams.
   */
  streamsOf(
    ids: string[],
    idleMinutes: number,
    maxHours: number,
  ): Promise<(Omit<SessionRow, 'csrf_token' | 'last_seen_at' | 'name' | 'requires_periodic_password_change' | 'password_changed_at' | 'user_created_at'> & { session_id: string })[]> {
    return sqlRows(
      this.em,
      `select s.id as session_id, u.id as user_id, u.account_id, u.email, u.role, u.permissions, u.domain_ids, u.template_ids, a.plan
         from user_sessions s
         join account_users u on u.id = s.user_id
         join accounts a on a.id = u.account_id
        where s.id = any($1::text[])
          and s.last_seen_at > now() - make_interval(mins => $2)
          and s.created_at > now() - make_interval(hours => $3)`,
      [textArray(ids), idleMinutes, maxHours],
    );
  }

  /** Moves the idle clock; called at most once a minute per session, so most requests write nothing. */
  async touch(idHash: string): Promise<void> {
    await sqlCount(this.em, `update user_sessions set last_seen_at = now() where id = $1 and last_seen_at < now() - interval '1 minute'`, [idHash]);
  }

  /** Ends every session of a user but `keep` (a password change keeps the session that made it); answers the ids ended. */
  async endOthers(userId: string, keep: string | null): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(this.em, 'delete from user_sessions where user_id = $1 and id <> $2 returning id', [userId, keep ?? '']);
    return rows.map((r) => r.id);
  }

  /** Removes one recovery code if it is still there; true when it was (single use, even in a race). */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(
      this.em,
      'update account_users set recovery_codes = array_remove(recovery_codes, $1) where id = $2 and $1 = any(recovery_codes) returning id',
      [codeHash, userId],
    );
    return rows.length > 0;
  }

  /** Records a login by the TOTP code of `step`; false when that step (or a later one) was used already. */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(
      this.em,
      'update account_users set totp_last_step = $1 where id = $2 and (totp_last_step is null or totp_last_step < $1) returning id',
      [step, userId],
    );
    return rows.length > 0;
  }

  /** Takes a reset link's token once: clears it and answers the user, if it was live. */
  async takeReset(resetHash: string): Promise<string | null> {
    const rows = await sqlRows<{ id: string }>(
      this.em,
      'update account_users set reset_hash = null, reset_expires_at = null where reset_hash = $1 and reset_expires_at > now() returning id',
      [resetHash],
    );
    return rows[0]?.id ?? null;
  }
}
