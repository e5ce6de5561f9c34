import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { parseConfig, type Config } from './config/index.js';
import { startEmbeddedPostgres, type EmbeddedDb } from './db/embedded.js';
import { retryWhileUnavailable } from './db/unavailable.js';
import { createOrm, migrate } from './db/orm.js';
import { createDns } from './lib/dns.js';
import { closePoolsOf } from './lib/untrusted-pool.js';
import { readQueueDepthFrom, watchEventLoop } from './lib/metrics.js';
import { bindPubSub, createPgPubSub } from './lib/pubsub.js';
import { randomSecret } from './lib/secrets.js';
import { createBoss } from './jobs/boss.js';
import { jobs } from './jobs/registry.js';
import { startWorkers } from './jobs/workers.js';
import { buildAppSchema } from './graphql/schema.js';
import { createHttpServer } from './http/server.js';
import { startMetricsListener, type MetricsListener } from './http/metrics.js';
import { bootstrapFirstAccount, settleTrustedDomains } from './modules/operator/bootstrap.js';
import { createMailTransport } from './modules/mail/transport.js';
import { startSmtpRelay, type SmtpRelay } from './modules/smtp/server.js';
import type { AppServices } from './services.js';
import { Meter } from './modules/quota/meter.js';
import { TokenCache } from './modules/tokens/token.cache.js';

export const ROLES = ['api', 'worker', 'smtp'] as const;
export type Role = (typeof ROLES)[number];

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

export async function startApp(opts: {
  env?: Record<string, string | undefined>;
  roles?: Role[];
  log?: Logger;
}): Promise<RunningApp> {
  const parsed = parseConfig(opts.env ?? process.env);
  const roles = new Set<Role>(opts.roles ?? ROLES);
  const log = opts.log ?? pino({ level: parsed.LOG_LEVEL });

  let embedded: EmbeddedDb | null = null;
  let dbUrl = parsed.DATABASE_URL;
  if (!dbUrl) {
    embedded = await startEmbeddedPostgres({
      dir: parsed.EMBEDDED_PG_DIR ?? path.join(parsed.DATA_DIR, 'pg'),
      fixed: parsed.EMBEDDED_PG_DIR !== undefined,
      port: parsed.EMBEDDED_PG_PORT,
      // One line on where the database lives, and why when it is not in DATA_DIR (see embedded.ts).
      announce: (dir, moved, binaries) =>
        log.info({ dir, port: parsed.EMBEDDED_PG_PORT, binaries }, moved ?? 'starting embedded PostgreSQL'),
    });
    dbUrl = embedded.url;
  }
  const config: Config = {
    ...parsed,
    APP_SECRET: appSecret(parsed),
    PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
  };

  await waitForDatabase(dbUrl, config.DATABASE_WAIT_SECONDS, log);
  const orm = await createOrm(dbUrl, 10, (message) => log.debug({ orm: true }, message));
  await migrateUnderLock(dbUrl, () => migrate(orm));
  const boss = await createBoss(dbUrl, log, config, jobs);
  const pubsub = await createPgPubSub(dbUrl, (err) => log.error({ err }, 'pubsub error'), { flushMs: config.PUBSUB_FLUSH_MS });
  // Notices registered in a transaction (afterCommit) go out through this pubsub once it commits.
  bindPubSub(orm.em, pubsub);
  // pg-boss keeps each queue's counts on its queue row (refreshed by its monitor, every
  // JOB_SUPERVISE_SECONDS): one cheap read per scrape.
  readQueueDepthFrom(async () => Object.fromEntries((await boss.getQueues()).map((q) => [q.name, q.queuedCount])));
  const stopWatchingLoop = watchEventLoop();
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

  let http: FastifyInstance | null = null;
  let url: string | null = null;
  if (roles.has('api')) {
    const schema = await buildAppSchema(pubsub);
    http = await createHttpServer(services, schema);
    await http.listen({ port: config.PORT, host: config.HOST });
    const address = http.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    url = `http://127.0.0.1:${port}`;
    if (!parsed.PUBLIC_URL) config.PUBLIC_URL = `http://localhost:${port}`;
    log.info({ url }, 'api listening');
  }
  // Job workers run on a pool of their own, so delivery bursts never take the API's connections.
  let workerOrm: Awaited<ReturnType<typeof createOrm>> | null = null;
  if (roles.has('worker')) {
    workerOrm = await createOrm(dbUrl, config.WORKER_DB_POOL, (message) => log.debug({ orm: true }, message));
    // Its transactions send their after-commit notices (live activity) like the API's.
    bindPubSub(workerOrm.em, pubsub);
    await startWorkers({ ...services, orm: workerOrm });
    log.info('worker started');
  }
  let smtp: SmtpRelay | null = null;
  if (roles.has('smtp')) {
    smtp = await startSmtpRelay(services);
  }
  // Each process's figures (its event loop, its jobs, its SMTP sessions) are its own to serve.
  const metrics: MetricsListener | null = config.METRICS_PORT === undefined ? null : await startMetricsListener(config, log);

  let closed = false;
  return {
    services,
    http,
    url,
    smtpPort: smtp?.port,
    metricsUrl: metrics?.url ?? null,
    async close() {
      if (closed) return;
      closed = true;
      await http?.close();
      await metrics?.close();
      await smtp?.close();
      // Requests counted in memory are written before the database goes.
      await services.meter.close();
      services.tokenCache.close();
      await boss.stop({ graceful: true, timeout: 10_000 }).catch((err) => log.error({ err }, 'pg-boss stop'));
      // Once no request, session or job can give them work: the threads of every pool the app
      // started (renders, untrusted parses) exit before close() returns.
      await closePoolsOf(config);
      stopWatchingLoop();
      await pubsub.close();
      await workerOrm?.close();
      await orm.close();
      await embedded?.stop();
    },
  };
}
