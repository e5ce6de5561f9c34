import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { ConfigError, parseConfig, type Config } from '../config/index.js';
import { retryWhileUnavailable } from '../db/unavailable.js';
import { createOrm, migrate, type Orm } from '../db/orm.js';
import { createDns } from '../lib/dns.js';
import { closePoolsOf } from '../lib/untrusted-pool.js';
import { probeDatabaseWith, readQueueDepthFrom } from '../lib/metrics.js';
import { watchEventLoop } from '../lib/event-loop.js';
import { pingDatabase } from '../db/health.js';
import { bindPubSub, createPgPubSub } from '../lib/pubsub.js';
import { randomSecret } from '../lib/secrets.js';
import { startMetricsListener } from '../http/metrics.js';
import { bootstrapFirstAccount, settleTrustedDomains } from '../modules/operator/bootstrap.js';
import { createBoss } from '../jobs/boss.js';
import { createMailTransport } from '../modules/mail/transport.js';
import type { AppServices } from '../core/services.js';
import { Meter } from '../modules/quota/meter.js';
import { TokenCache } from '../core/token-cache.js';
import { jobDefinitions } from '../modules/jobs.js';
import { entities } from './tables.js';
import type { Role, RunningRole } from './role.js';

export interface RunningApp {
  services: AppServices;
  http: FastifyInstance | null;
  /** `http://127.0.0.1:<port>` when the api role runs. */
  url: string | null;
  /** The SMTP relay's port when the smtp role runs. */
  smtpPort?: number;
  /** Where this process serves /metrics for Prometheus when METRICS_PORT is set, whatever its roles. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

/** APP_SECRET, or one generated on first start and kept in DATA_DIR (mode 0600). */
function appSecret(config: ReturnType<typeof parseConfig>): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const file = path.resolve(config.DATA_DIR, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomSecret(48);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Waits until the database takes connections, for up to `seconds`: a service started together
 * with its database, or while it restarts, comes up once the database is there instead of
 * exiting (a supervisor would restart it, but in a loop of failed starts).
 */
async function waitForDatabase(url: string, seconds: number, log: Logger): Promise<void> {
  await retryWhileUnavailable(
    seconds,
    async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    (err) => log.warn({ err: (err as Error).message }, 'waiting for the database'),
  );
}

/** Several processes may start at once against one database: one of them migrates. */
async function migrateUnderLock(url: string, run: () => Promise<void>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(727000)');
    await run();
  } finally {
    await client.query('select pg_advisory_unlock(727000)').catch(() => undefined);
    await client.end();
  }
}

/** A database this process started for itself (the embedded PostgreSQL), stopped when it closes. */
export interface OwnDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Starts a database when DATABASE_URL is not set: src/roles/embedded.ts, in a process of every role. */
export type StartOwnDatabase = (parsed: ReturnType<typeof parseConfig>, log: Logger) => Promise<OwnDatabase>;

/**
 * Where the database is: DATABASE_URL, or one this process starts. A process of one role has none
 * of its own: its roles' other processes must reach the same database.
 */
async function startDatabase(parsed: ReturnType<typeof parseConfig>, log: Logger, own?: StartOwnDatabase): Promise<{ dbUrl: string; embedded: OwnDatabase | null }> {
  if (parsed.DATABASE_URL) return { dbUrl: parsed.DATABASE_URL, embedded: null };
  if (!own) {
    throw new ConfigError('DATABASE_URL is not set: a process of one role shares the database of the others (npm start runs every role on an embedded PostgreSQL)');
  }
  const embedded = await own(parsed, log);
  return { dbUrl: embedded.url, embedded };
}

/** The services every role shares, on a migrated database, with the first account in place. */
async function createServices(config: Config, dbUrl: string, log: Logger): Promise<AppServices> {
  await waitForDatabase(dbUrl, config.DATABASE_WAIT_SECONDS, log);
  const orm = await createOrm(dbUrl, entities, 10, (message) => log.debug({ orm: true }, message));
  await migrateUnderLock(dbUrl, () => migrate(orm));
  const boss = await createBoss(dbUrl, log, config, jobDefinitions);
  const pubsub = await createPgPubSub(dbUrl, (err) => log.error({ err }, 'pubsub error'), { flushMs: config.PUBSUB_FLUSH_MS });
  // Notices registered in a transaction (afterCommit) go out through this pubsub once it commits.
  bindPubSub(orm.em, pubsub);
  // pg-boss keeps each queue's counts on its queue row (refreshed by its monitor, every
  // JOB_SUPERVISE_SECONDS): one cheap read per scrape.
  readQueueDepthFrom(async () => Object.fromEntries((await boss.getQueues()).map((q) => [q.name, { queued: q.queuedCount, ready: q.readyCount }])));
  probeDatabaseWith(() => pingDatabase(orm.em));
  const dns = createDns({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS });
  const services: AppServices = {
    config,
    orm,
    dns,
    boss,
    pubsub,
    mail: createMailTransport(config, dns, () => orm.em.fork(), log),
    log,
    tokenCache: new TokenCache(config.TOKEN_CACHE_SECONDS * 1000, () => pubsub.epoch),
    meter: new Meter(() => orm.em.fork(), config, log),
  };
  services.tokenCache.listen(pubsub, log);
  await bootstrapFirstAccount(orm.em.fork(), config, log);
  await settleTrustedDomains(orm.em.fork(), config, log);
  return services;
}

/**
 * Starts one process's roles on the services they share: the database (DATABASE_URL or the
 * embedded one), the migrated schema, pg-boss with every job's queue, the pubsub, then each role
 * in order, and this process's /metrics listener. Closing stops them in the order that loses no
 * work: requests and sessions first, then jobs, then the pools and the database.
 */
export async function startRoles(
  roles: readonly Role[],
  opts: { env?: Record<string, string | undefined>; log?: Logger; ownDatabase?: StartOwnDatabase },
): Promise<RunningApp> {
  const parsed = parseConfig(opts.env ?? process.env);
  const log = opts.log ?? pino({ level: parsed.LOG_LEVEL });
  const { dbUrl, embedded } = await startDatabase(parsed, log, opts.ownDatabase);
  const config: Config = { ...parsed, APP_SECRET: appSecret(parsed), PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}` };
  const services = await createServices(config, dbUrl, log);
  const stopWatchingLoop = watchEventLoop();
  const running: RunningRole[] = [];
  for (const role of roles) running.push(await role.start({ services, dbUrl, publicUrlSet: parsed.PUBLIC_URL !== undefined }));
  // Each process's figures (its event loop, its jobs, its SMTP sessions) are its own to serve.
  const metrics = config.METRICS_PORT === undefined ? null : await startMetricsListener(config, log);
  let closed = false;
  return {
    services,
    http: running.find((r) => r.http)?.http ?? null,
    url: running.find((r) => r.url)?.url ?? null,
    smtpPort: running.find((r) => r.smtpPort !== undefined)?.smtpPort,
    metricsUrl: metrics?.url ?? null,
    async close() {
      if (closed) return;
      closed = true;
      for (const role of running) await role.stop();
      await metrics?.close();
      // Requests counted in memory are written before the database goes.
      await services.meter.close();
      services.tokenCache.close();
      await services.boss.stop({ graceful: true, timeout: 10_000 }).catch((err) => log.error({ err }, 'pg-boss stop'));
      // Once no request, session or job can give them work: the threads of every pool the app
      // started (renders, untrusted parses) exit before close() returns.
      await closePoolsOf(config);
      stopWatchingLoop();
      await services.pubsub.close();
      for (const role of running) await role.release?.();
      await services.orm.close();
      await embedded?.stop();
    },
  };
}
