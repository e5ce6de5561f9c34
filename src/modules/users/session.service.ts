import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import type { Actor } from '../../core/actor.js';
import { SCOPES, scopesOfPermissions } from '../../core/scopes.js';
import { randomSecret, sha256Hex } from '../../lib/secrets.js';
import { ADMIN_ROLE, permissionsOf } from './roles.js';
import { SessionRepository, type SessionRow } from './session.repository.js';
import { UserSession } from './session.entity.js';
import type { AccountUser } from './user.entity.js';
import type { ClosablePubSub } from '../../lib/pubsub.js';
import { TOKEN_REVOKED, type TokenRevoked } from '../tokens/token.service.js';

export const SESSION_COOKIE = 'pb_session';

/** The key a session's live streams are known by (http/stream-guard.ts). */
export const sessionStreamKey = (sessionId: string) => `session:${sessionId}`;

/**
 * Ends the live streams of sessions that just ended, in every process, at once (the guard's sweep
 * would find them within seconds too; a lost notice leaves that).
 */
export async function endStreamsOf(pubsub: Pick<ClosablePubSub, 'publish'>, sessionIds: string[]): Promise<void> {
  for (const id of sessionIds) {
    const notice: TokenRevoked = { token_id: sessionStreamKey(id) };
    await pubsub.publish(TOKEN_REVOKED, notice);
  }
}

/** What a live session says about its caller. */
export interface SessionAuth {
  actor: Actor;
  csrfToken: string;
  /** The password is older than PASSWORD_MAX_AGE_DAYS for a user who must change it: only /auth/* answers. */
  passwordChangeRequired: boolean;
  user: SessionUser;
  /** sha256 of the cookie, the session's id. */
  id: string;
}

/** The user as /auth/login and /auth/session answer it (the contract with the console). */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
  permissions: string[];
}

type Settings = Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS' | 'PASSWORD_MAX_AGE_DAYS'>;

/** Whether a user who must change their password periodically has kept this one too long. */
export function passwordExpired(
  config: Pick<Config, 'PASSWORD_MAX_AGE_DAYS'>,
  u: { requires_periodic_password_change: boolean; password_changed_at: Date | string | null; created_at: Date | string },
): boolean {
  if (!u.requires_periodic_password_change) return false;
  // Raw rows (session.repository.ts) may carry timestamps as text.
  const since = new Date(u.password_changed_at ?? u.created_at).getTime();
  return Date.now() - since > config.PASSWORD_MAX_AGE_DAYS * 86_400_000;
}

/**
 * The Actor of a session user: the scopes of their role's permissions (one map, core/scopes.ts,
 * so the declarations that guard tokens guard users), their domain and template access. An admin
 * holds every scope. A user limited to one domain is treated like a token of that domain; to
 * several, through `domainIds`.
 */
export function actorOfUser(row: Pick<SessionRow, 'user_id' | 'account_id' | 'email' | 'role' | 'permissions' | 'domain_ids' | 'template_ids' | 'plan'>, ip: string | null): Actor {
  const permissions = permissionsOf(row.role, row.permissions);
  const domains = [...new Set(row.domain_ids)];
  return {
    accountId: row.account_id,
    tokenId: `user:${row.user_id}`,
    tokenName: row.email,
    userId: row.user_id,
    scopes: row.role === ADMIN_ROLE ? new Set<string>(SCOPES) : scopesOfPermissions(permissions),
    domainId: domains.length === 1 ? domains[0] : null,
    domainIds: domains.length > 1 ? domains : null,
    templateIds: row.template_ids.length ? [...row.template_ids] : null,
    permissions,
    plan: row.plan,
    ip,
  };
}

export function sessionUserOf(u: Pick<AccountUser, 'id' | 'email' | 'name' | 'role' | 'permissions'>): SessionUser {
  return { id: u.id, email: u.email, name: u.name, role: u.role, permissions: permissionsOf(u.role, u.permissions) };
}

export class SessionService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Settings,
  ) {}

  /**
   * The caller a session cookie authenticates, or null (unknown, idle, too old, or its user gone).
   * Read on every request, not cached: a user removed or changed is seen by the next request.
   */
  async resolve(cookie: string, ip: string | null): Promise<SessionAuth | null> {
    if (!cookie || cookie.length > 128) return null;
    const id = sha256Hex(cookie);
    const repo = new SessionRepository(this.em);
    const row = await repo.live(id, this.config.SESSION_IDLE_MINUTES, this.config.SESSION_MAX_HOURS);
    if (!row) return null;
    if (Date.now() - new Date(row.last_seen_at).getTime() > 60_000) await repo.touch(id);
    return {
      id,
      actor: { ...actorOfUser(row, ip), sessionId: id },
      csrfToken: row.csrf_token,
      passwordChangeRequired: passwordExpired(this.config, { ...row, created_at: row.user_created_at }),
      user: sessionUserOf({ id: row.user_id, email: row.email, name: row.name, role: row.role, permissions: row.permissions }),
    };
  }

  /** A new session for the user: the cookie's secret (never stored) and its CSRF token. */
  async open(user: AccountUser): Promise<{ cookie: string; csrfToken: string }> {
    const cookie = randomSecret(32);
    const csrfToken = randomSecret(24);
    this.em.create(UserSession, { id: sha256Hex(cookie), user, csrf_token: csrfToken });
    await this.em.flush();
    return { cookie, csrfToken };
  }

  /** Logs the session out; answers its id. */
  async close(cookie: string): Promise<string> {
    const id = sha256Hex(cookie);
    await this.em.nativeDelete(UserSession, { id });
    return id;
  }
}
