import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Dns } from '../lib/dns.js';
import type { PgBoss } from 'pg-boss';
import type { ClosablePubSub } from '../lib/pubsub.js';
import type { MailTransport } from '../lib/mail.js';
import type { Actor } from './actor.js';
import type { TokenCache } from './token-cache.js';

/** What a caller has used of its limits: its token's and its account's rate windows, and the daily quota. */
export interface Usage {
  rate: { limit: number; hits: number; resetsAt: Date };
  /** The account's rate window: all its tokens (and SMTP users) together. */
  accountRate: { limit: number; hits: number; resetsAt: Date };
  quota: { limit: number; hits: number; resetsAt: Date };
  now: Date;
}

/** API requests counted in memory and written in batches (modules/quota/meter.ts is the one). */
export interface RequestMeter {
  /** Counts `n` requests of the caller (and against the daily quota when `countQuota`); what it has used. */
  meter(auth: Actor, n: number, countQuota: boolean): Promise<Usage>;
  /** Requests of the account counted here and not written yet. */
  unwrittenQuota(accountId: string): number;
  close(): Promise<void>;
}

/**
 * What every entry point and job shares, built by the composition root (src/roles/runtime.ts). Plain
 * object; no DI container. Its members are of the ground's own types, so anything may depend on it.
 */
export interface AppServices {
  config: Config;
  orm: MikroORM;
  dns: Dns;
  boss: PgBoss;
  pubsub: ClosablePubSub;
  mail: MailTransport;
  log: Logger;
  /** Authenticated API tokens, kept a few seconds (token.cache.ts). */
  tokenCache: TokenCache;
  /** API requests counted in memory and written in batches (quota/meter.ts). */
  meter: RequestMeter;
}
