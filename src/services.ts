import type { Logger } from 'pino';
import type { Config } from './config/index.js';
import type { Orm } from './db/orm.js';
import type { Dns } from './lib/dns.js';
import type { Boss } from './jobs/boss.js';
import type { ClosablePubSub } from './lib/pubsub.js';
import type { MailTransport } from './modules/mail/transport.js';
import type { Meter } from './modules/quota/meter.js';
import type { TokenCache } from './modules/tokens/token.cache.js';

/** What every entry point and job shares. Plain object; no DI container. */
export interface AppServices {
  config: Config;
  orm: Orm;
  dns: Dns;
  boss: Boss;
  pubsub: ClosablePubSub;
  mail: MailTransport;
  log: Logger;
  /** Authenticated API tokens, kept a few seconds (token.cache.ts). */
  tokenCache: TokenCache;
  /** API requests counted in memory and written in batches (quota/meter.ts). */
  meter: Meter;
}
