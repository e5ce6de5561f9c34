import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Auth } from '../graphql/context.js';
import type { Orm } from '../db/orm.js';
import type { ClosablePubSub } from '../lib/pubsub.js';
import { TOKEN_REVOKED, type TokenRevoked } from '../modules/tokens/token.service.js';
import { TokenRepository } from '../modules/tokens/token.repository.js';
import { SessionRepository } from '../modules/users/session.repository.js';
import { actorOfUser, sessionStreamKey } from '../modules/users/session.service.js';
import type { Config } from '../config/index.js';
import { errors } from '../core/errors.js';
import { liveStreams, liveStreamsStopped } from '../lib/metrics.js';

/**
 * How long a console session lives: its streams end with it (the limits SessionService.resolve
 * applies); how many streams one process holds.
 */
export type StreamLimits = Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS' | 'STREAMS_PER_ACCOUNT' | 'STREAMS_MAX'>;

interface Open {
  res: ServerResponse;
  scopes: string;
  domainId: string | null;
  /** A console session's domains (Actor.domainIds), as a key. */
  domains: string;
}

const scopeKey = (scopes: Iterable<string>) => [...scopes].sort().join(' ');
/** A console session's streams are keyed by the session, not by its user's pseudo token id. */
const SESSION = sessionStreamKey('');
const keyOf = (auth: Auth) => (auth.sessionId ? sessionStreamKey(auth.sessionId) : auth.tokenId);
const accessOf = (auth: Pick<Auth, 'scopes' | 'domainId' | 'domainIds'>): Omit<Open, 'res'> => ({
  scopes: scopeKey(auth.scopes),
  domainId: auth.domainId,
  domains: (auth.domainIds ?? []).join(' '),
});

/**
 * Live streams (`/graphql/stream`) are authenticated once, when they connect; this ends them when
 * their token stops being what it was. Pausing or deleting a token publishes TOKEN_REVOKED, which
 * every process hears within milliseconds and answers by closing that token's streams. NOTIFY keeps
 * no backlog, so a notice sent while the LISTEN connection was down would be lost: a sweep every
 * `sweepMs` also reads the tokens of the open streams (one statement, only while streams are open)
 * and closes those whose token is gone, paused, or has other scopes or another domain than it had.
 * A console session's streams end when the session does: logged out (at once, by the same
 * notice), idle or old past SESSION_IDLE_MINUTES / SESSION_MAX_HOURS, or its user removed or
 * changed (by the sweep; test/auth/stream.test.ts). It also holds one process's streams to
 * STREAMS_PER_ACCOUNT per account and STREAMS_MAX in all (test/graphql/live-streams.test.ts).
 */
export class StreamGuard {
  private readonly open = new Map<string, Set<Open>>();
  private readonly perAccount = new Map<string, number>();
  private total = 0;
  private readonly sweeper: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly orm: Orm,
    private readonly pubsub: ClosablePubSub,
    private readonly log: Logger,
    private readonly limits: StreamLimits,
    sweepMs = 5000,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), sweepMs);
    this.sweeper.unref();
    void this.listen();
  }

  /** Watches one stream's response until it closes; throws when the process or the account holds all it may. */
  watch(auth: Auth, res: ServerResponse): void {
    const held = this.perAccount.get(auth.accountId) ?? 0;
    if (this.total >= this.limits.STREAMS_MAX) {
      liveStreamsStopped.inc({ why: 'process' });
      throw errors.unavailable('This server holds as many live streams as it may. Try again shortly.');
    }
    if (held >= this.limits.STREAMS_PER_ACCOUNT) {
      liveStreamsStopped.inc({ why: 'account' });
      throw errors.tooManyRequests(`This account holds ${held} live streams, the most one server keeps open for it. Close one first.`, 60);
    }
    this.total++;
    liveStreams.set(this.total);
    this.perAccount.set(auth.accountId, held + 1);
    res.once('close', () => {
      this.total--;
      liveStreams.set(this.total);
      const left = (this.perAccount.get(auth.accountId) ?? 1) - 1;
      if (left > 0) this.perAccount.set(auth.accountId, left);
      else this.perAccount.delete(auth.accountId);
    });
    const entry: Open = { res, ...accessOf(auth) };
    const key = keyOf(auth);
    const set = this.open.get(key) ?? new Set<Open>();
    set.add(entry);
    this.open.set(key, set);
    res.once('close', () => {
      set.delete(entry);
      if (!set.size && this.open.get(key) === set) this.open.delete(key);
    });
  }

  /** Ends every open stream of a token (the client sees its connection close). */
  close(tokenId: string, why: string): void {
    const set = this.open.get(tokenId);
    if (!set) return;
    this.open.delete(tokenId);
    this.log.info({ tokenId, streams: set.size, why }, 'closing live streams of a changed token');
    for (const { res } of set) res.destroy();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  private async listen(): Promise<void> {
    const notices = this.pubsub.subscribe(TOKEN_REVOKED) as AsyncIterable<TokenRevoked>;
    try {
      for await (const notice of notices) {
        if (this.stopped) break;
        this.close(notice.token_id, 'revoked');
      }
    } catch (err) {
      this.log.error({ err }, 'token revocation listener stopped');
    }
  }

  private async sweep(): Promise<void> {
    if (!this.open.size) return;
    const ids = [...this.open.keys()].filter((k) => !k.startsWith(SESSION));
    try {
      await this.sweepSessions();
      if (!ids.length) return;
      const rows = await new TokenRepository(this.orm.em.fork()).accessOf(ids);
      const now = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const token = now.get(id);
        const set = this.open.get(id);
        if (!set) continue;
        const changed = (o: Open) => !token || token.status === 'pause' || scopeKey(token.scopes) !== o.scopes || token.domain_id !== o.domainId;
        if ([...set].some(changed)) this.close(id, token ? 'changed' : 'deleted');
      }
    } catch (err) {
      // The database is away: the next sweep tries again (streams cannot outlive that by much).
      this.log.warn({ err }, 'live stream token sweep failed');
    }
  }

  /** Console sessions: a stream ends when its session does (logout, password change, idle, too old) or its user's access changed. */
  private async sweepSessions(): Promise<void> {
    const keys = [...this.open.keys()].filter((k) => k.startsWith(SESSION));
    if (!keys.length) return;
    const { SESSION_IDLE_MINUTES, SESSION_MAX_HOURS } = this.limits;
    const ids = keys.map((k) => k.slice(SESSION.length));
    const rows = await new SessionRepository(this.orm.em.fork()).streamsOf(ids, SESSION_IDLE_MINUTES, SESSION_MAX_HOURS);
    const now = new Map(rows.map((r) => [sessionStreamKey(r.session_id), accessOf(actorOfUser(r, null))]));
    for (const key of keys) {
      const current = now.get(key);
      const set = this.open.get(key);
      if (!set) continue;
      const changed = (o: Open) => !current || current.scopes !== o.scopes || current.domainId !== o.domainId || current.domains !== o.domains;
      if ([...set].some(changed)) this.close(key, current ? 'changed' : 'session ended');
    }
  }
}
