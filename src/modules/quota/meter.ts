import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { Actor } from '../../core/actor.js';
import { rateLimitsOf } from '../../config/plans.js';
import { QuotaRepository, type FlushAccount, type FlushRow, type FlushToken, type MeterRow } from './quota.repository.js';
import { nextUtcMidnight, type Usage } from './quota.service.js';

/**
 * What this process knows of one counter row: the counts as last read (null until read), what it
 * counted since and has not sent (`pending`) or sent in the statement in flight (`sending`), and
 * that statement (`busy`): at most one per row and process, so each answer is exact.
 */
interface Key {
  busy: Promise<unknown> | null;
  readAt: number;
}

interface TokenState extends Key {
  known: { hits: number; /** Epoch seconds, as the database wrote it: the flush names the window by it. */ win: number } | null;
  pending: number;
  sending: number;
}

interface AccountState extends Key {
  known: { rateHits: number; win: number; quotaHits: number; /** UTC day (YYYY-MM-DD) and its end (ms). */ day: string; dayEnd: number } | null;
  ratePending: number;
  rateSending: number;
  quotaPending: number;
  quotaSending: number;
}

/** A window this close to its end (ms) is read again rather than counted into blindly. */
const END_MARGIN_MS = 50;
const MAX_TRIES = 20;

const dayOf = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);
const unwrittenToken = (t: TokenState) => t.pending + t.sending;
const unwrittenAccount = (a: AccountState) => a.ratePending + a.rateSending + a.quotaPending + a.quotaSending;
type Limits = { token: number; account: number; quota: number };

/**
 * Counts API requests against the token's rate window, the account's rate window and its daily
 * quota (api_rate_counters, api_quota_counters) without a statement per request.
 *
 * A request whose token and account have nothing unwritten in this process is metered as before:
 * one statement counts it and reads the counts back, so a client making one request at a time sees
 * exact counts, and so does every process after it. A request that comes while its token's or
 * account's statement is in flight or counts wait to be written (requests in parallel) is decided
 * in memory, against the counts last read plus what this process counted since, and written with
 * everything else counted here by one statement every METER_FLUSH_MS. At most one statement per
 * row is in flight per process, so within one process the counts are exact either way.
 *
 * Error bound across processes: a process decides in memory only on counts read within the last
 * two flush intervals, and with at most METER_MAX_PENDING hits per token and per account unwritten
 * (past that it writes first). What one process can miss of another is what that one has not
 * written yet: with P processes serving one token or account, at most (P - 1) x METER_MAX_PENDING
 * requests per flush interval are served over its limit. One process alone never passes a limit.
 */
export class Meter {
  private readonly tokens = new Map<string, TokenState>();
  private readonly accounts = new Map<string, AccountState>();
  /** Database clock minus this process's clock (ms), from the last statement. */
  private offset = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly em: () => EntityManager,
    private readonly config: Pick<Config, 'RATE_LIMIT_REQUESTS' | 'ACCOUNT_RATE_LIMIT_REQUESTS' | 'RATE_LIMIT_WINDOW_SECONDS' | 'API_QUOTA_PER_DAY' | 'METER_FLUSH_MS' | 'METER_MAX_PENDING'>,
    private readonly log: Logger,
  ) {}

  /** One API request of a token, worth `n` hits (root fields asked for). */
  async meter(auth: Actor, n: number, countQuota: boolean): Promise<Usage> {
    const limits = { ...rateLimitsOf(this.config, auth.plan ?? 'free'), quota: this.config.API_QUOTA_PER_DAY };
    for (let tries = 0; ; tries++) {
      const t = this.token(auth.tokenId);
      const a = this.account(auth.accountId);
      const busy = t.busy ?? a.busy;
      // In memory while a statement of this row is in flight or counts wait to be written.
      if ((busy || unwrittenToken(t) || unwrittenAccount(a)) && this.decidable(t, a, n)) return this.count(t, a, n, countQuota, limits);
      if (busy) {
        await busy.catch(() => undefined);
        continue;
      }
      // Nothing of ours unwritten: the database's answer is the exact count, as it always was.
      if (!unwrittenToken(t) && !unwrittenAccount(a)) return this.sync(auth, t, a, n, countQuota, limits);
      // Counts wait but cannot decide (window ending, too many, too old): write them first.
      if (tries >= MAX_TRIES) return this.sync(auth, t, a, n, countQuota, limits);
      await this.flush();
    }
  }

  /** What this process counted for the account's day and has not written (GET /v1/api-quota adds it). */
  unwrittenQuota(accountId: string): number {
    const a = this.accounts.get(accountId);
    return a ? a.quotaPending + a.quotaSending : 0;
  }

  private token(id: string): TokenState {
    let t = this.tokens.get(id);
    if (!t) this.tokens.set(id, (t = { known: null, pending: 0, sending: 0, busy: null, readAt: 0 }));
    return t;
  }

  private account(id: string): AccountState {
    let a = this.accounts.get(id);
    if (!a) this.accounts.set(id, (a = { known: null, ratePending: 0, rateSending: 0, quotaPending: 0, quotaSending: 0, busy: null, readAt: 0 }));
    return a;
  }

  /** The counts are known, recent, in windows that do not end now, and few enough are unwritten. */
  private decidable(t: TokenState, a: AccountState, n: number): boolean {
    if (this.closed || !t.known || !a.known) return false;
    const now = Date.now();
    const dbNow = now + this.offset;
    const maxAge = 2 * this.config.METER_FLUSH_MS;
    const max = this.config.METER_MAX_PENDING;
    return (
      now - t.readAt <= maxAge && now - a.readAt <= maxAge &&
      dbNow < t.known.win * 1000 - END_MARGIN_MS && dbNow < a.known.win * 1000 - END_MARGIN_MS && dbNow < a.known.dayEnd - END_MARGIN_MS &&
      t.pending + n <= max && a.ratePending + n <= max
    );
  }

  /** Decides in memory, in the order the statement would: token window, account window, day. */
  private count(t: TokenState, a: AccountState, n: number, countQuota: boolean, limits: Limits): Usage {
    const tk = t.known!;
    const ak = a.known!;
    t.pending += n;
    const rate = tk.hits + t.pending + t.sending;
    if (rate <= limits.token) {
      a.ratePending += n;
      if (ak.rateHits + a.ratePending + a.rateSending <= limits.account && countQuota) a.quotaPending += n;
    }
    this.schedule();
    return {
      rate: { limit: limits.token, hits: rate, resetsAt: new Date(tk.win * 1000) },
      accountRate: { limit: limits.account, hits: ak.rateHits + a.ratePending + a.rateSending, resetsAt: new Date(ak.win * 1000) },
      quota: { limit: limits.quota, hits: ak.quotaHits + a.quotaPending + a.quotaSending, resetsAt: new Date(ak.dayEnd) },
      now: new Date(Date.now() + this.offset),
    };
  }

  /** One statement for this request: counts it and reads the three counts back (exact: nothing of ours is unwritten). */
  private async sync(auth: Actor, t: TokenState, a: AccountState, n: number, countQuota: boolean, limits: Limits): Promise<Usage> {
    const q = countQuota ? n : 0;
    // While it is in flight, requests in parallel count in memory on top of it.
    t.sending += n;
    a.rateSending += n;
    a.quotaSending += q;
    const statement = new QuotaRepository(this.em()).meter({
      accountId: auth.accountId,
      tokenId: auth.tokenId,
      hits: n,
      countQuota,
      windowSeconds: this.config.RATE_LIMIT_WINDOW_SECONDS,
      tokenLimit: limits.token,
      accountLimit: limits.account,
    });
    t.busy = a.busy = statement;
    let row: MeterRow;
    try {
      row = await statement;
    } finally {
      t.sending -= n;
      a.rateSending -= n;
      a.quotaSending -= q;
      t.busy = a.busy = null;
      // Counts made in memory meanwhile were skipped by flushes while it was in flight.
      if (t.pending || a.ratePending || a.quotaPending) this.schedule();
    }
    const readAt = Date.now();
    this.offset = row.now * 1000 - readAt;
    this.learnToken(t, row.rate_hits ?? 0, row.rate_reset, readAt);
    this.learnAccount(a, row.account_hits, row.account_reset, row.quota_hits, row.now * 1000, readAt);
    this.forgetIdle();
    const now = new Date(row.now * 1000);
    return {
      rate: { limit: limits.token, hits: row.rate_hits ?? 0, resetsAt: new Date(row.rate_reset * 1000) },
      accountRate: { limit: limits.account, hits: row.account_hits, resetsAt: new Date(row.account_reset * 1000) },
      quota: { limit: limits.quota, hits: row.quota_hits, resetsAt: nextUtcMidnight(now) },
      now,
    };
  }

  /** Counts read back; in another window than the one counted in, what was counted is gone with it. */
  private learnToken(t: TokenState, hits: number, win: number, readAt: number): void {
    if (t.known && Math.abs(t.known.win - win) >= 0.001) t.pending = 0;
    t.known = { hits, win };
    t.readAt = readAt;
  }

  private learnAccount(a: AccountState, rateHits: number, win: number, quotaHits: number, dbNowMs: number, readAt: number): void {
    const day = dayOf(dbNowMs);
    if (a.known && Math.abs(a.known.win - win) >= 0.001) a.ratePending = 0;
    if (a.known && a.known.day !== day) a.quotaPending = 0;
    a.known = { rateHits, win, quotaHits, day, dayEnd: nextUtcMidnight(new Date(dbNowMs)).getTime() };
    a.readAt = readAt;
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err) => this.log.error({ err }, 'writing API request counts failed'));
    }, this.config.METER_FLUSH_MS);
  }

  /** Writes what is pending for every row with no statement in flight, in one statement, and reads them back. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    const tokens: [FlushToken, TokenState][] = [];
    const accounts: [FlushAccount, AccountState][] = [];
    for (const [id, t] of this.tokens) if (t.pending && !t.busy && t.known) tokens.push([{ id, hits: t.pending, win: t.known.win }, t]);
    for (const [id, a] of this.accounts) {
      if ((a.ratePending || a.quotaPending) && !a.busy && a.known) accounts.push([{ id, rate: a.ratePending, win: a.known.win, quota: a.quotaPending, day: a.known.day }, a]);
    }
    if (!tokens.length && !accounts.length) return this.forgetIdle();
    // Sorted, so that flushes of several processes lock rows in the same order.
    tokens.sort(([x], [y]) => (x.id < y.id ? -1 : 1));
    accounts.sort(([x], [y]) => (x.id < y.id ? -1 : 1));
    const move = (sign: 1 | -1) => {
      for (const [f, t] of tokens) {
        t.pending -= sign * f.hits;
        t.sending += sign * f.hits;
      }
      for (const [f, a] of accounts) {
        a.ratePending -= sign * f.rate;
        a.rateSending += sign * f.rate;
        a.quotaPending -= sign * f.quota;
        a.quotaSending += sign * f.quota;
      }
    };
    move(1);
    const statement = new QuotaRepository(this.em()).flush(tokens.map(([f]) => f), accounts.map(([f]) => f));
    for (const [, k] of [...tokens, ...accounts]) k.busy = statement;
    this.flushing = (async () => {
      let rows: FlushRow[];
      try {
        rows = await statement;
      } catch (err) {
        // Kept and tried again with the next flush; meanwhile their count still decides here.
        move(-1);
        this.schedule();
        throw err;
      } finally {
        for (const [, k] of [...tokens, ...accounts]) k.busy = null;
      }
      for (const [f, t] of tokens) t.sending -= f.hits;
      for (const [f, a] of accounts) {
        a.rateSending -= f.rate;
        a.quotaSending -= f.quota;
      }
      this.learn(rows, tokens, accounts);
    })().finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Takes in a flush's answer; a row that did not come back (window restarted, token gone) is read afresh next time. */
  private learn(rows: FlushRow[], tokens: [FlushToken, TokenState][], accounts: [FlushAccount, AccountState][]): void {
    const readAt = Date.now();
    const now = rows.find((r) => r.kind === 'now')!.win * 1000;
    this.offset = now - readAt;
    const byId = new Map(rows.filter((r) => r.kind !== 'now').map((r) => [`${r.kind}:${r.id}`, r]));
    for (const [f, t] of tokens) {
      const r = byId.get(`t:${f.id}`);
      if (r) this.learnToken(t, r.hits!, r.win, readAt);
      else Object.assign(t, { known: null, pending: 0 });
    }
    for (const [f, a] of accounts) {
      const r = byId.get(`a:${f.id}`);
      if (r) this.learnAccount(a, r.hits!, r.win, r.day === dayOf(now) ? r.quota! : 0, now, readAt);
      else Object.assign(a, { known: null, ratePending: 0, quotaPending: 0 });
    }
    if (tokens.some(([, t]) => t.pending) || accounts.some(([, a]) => a.ratePending || a.quotaPending)) this.schedule();
    this.forgetIdle();
  }

  /** Rows idle (nothing unwritten or in flight) and too old to decide on are forgotten. */
  private forgetIdle(): void {
    const old = Date.now() - 2 * this.config.METER_FLUSH_MS;
    for (const [id, t] of this.tokens) if (!t.busy && !unwrittenToken(t) && t.readAt < old) this.tokens.delete(id);
    for (const [id, a] of this.accounts) if (!a.busy && !unwrittenAccount(a) && a.readAt < old) this.accounts.delete(id);
  }

  /** Stops counting in memory and writes what is pending (a closing process loses no count). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (let i = 0; i < 5 && ([...this.tokens.values()].some((t) => t.pending || t.busy) || [...this.accounts.values()].some((a) => a.ratePending || a.quotaPending || a.busy)); i++) {
      await Promise.all([...this.tokens.values(), ...this.accounts.values()].map((k) => k.busy?.catch(() => undefined)));
      await this.flush().catch((err) => this.log.error({ err }, 'writing API request counts on close failed'));
    }
  }
}
