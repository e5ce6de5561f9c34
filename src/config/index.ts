import { z } from 'zod';
import { PLANS } from '../modules/accounts/plans.js';

/**
 * Every setting of the service, validated once at start. README.md "Settings" documents each one;
 * keep the two in step.
 */
const hostPortList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[^\s:]+(:\d+)?$|^\[[0-9a-f:]+\](:\d+)?$/i, 'expected host:port')));

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

export const configSchema = z.object({
  /** `development` turns on what helps a developer and tells an attacker too (GraphQL's "Did you mean" suggestions). */
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  /** fastify's trustProxy: `true`, a hop count, or addresses/CIDRs of the proxies. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | number | string => (v === undefined || v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v)),
  DATABASE_URL: z.string().optional(),
  /** How long a starting process waits for the database to take connections before it gives up. */
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  /** The embedded cluster's folder (default DATA_DIR/pg; as root, moved when the postgres user cannot reach it: src/db/embedded.ts). */
  EMBEDDED_PG_DIR: z.string().optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  ADMIN_TOKEN: z.string().min(20, 'ADMIN_TOKEN must be at least 20 characters').optional(),
  ADMIN_EMAIL: z.email().optional(),
  OPERATOR_TOKEN: z.string().min(20, 'OPERATOR_TOKEN must be at least 20 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DNS_SERVERS: hostPortList.optional(),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SMTP_PUBLIC_HOST: z.string().default('localhost'),
  SMTP_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SPF_INCLUDE: z.string().default('_spf.postbox.local'),
  DKIM_SELECTOR: z.string().regex(/^[a-z0-9-]+$/).default('pb1'),
  RETURN_PATH_TARGET: z.string().default('return.postbox.local'),
  TRACKING_TARGET: z.string().default('track.postbox.local'),
  INBOUND_MX_HOST: z.string().default('inbound.postbox.local'),
  DOMAIN_CHECK_CRON: z.string().default('*/15 * * * *'),
  DOMAIN_REQUIRE_DNS: bool.default(true),
  /**
   * `dns`: a domain is verified when its DNS records are found. `trust`: verified on creation,
   * for a sandbox without public DNS; allowed only with MAIL_TRANSPORT=capture, and its default.
   */
  DOMAIN_VERIFICATION: z.enum(['dns', 'trust']).optional(),
  /** The plan and verification credits of accounts the service creates (the first one, and the operator's). */
  DEFAULT_PLAN: z.enum(PLANS).default('enterprise'),
  DEFAULT_VERIFICATION_CREDITS: z.coerce.number().int().min(0).default(1000),
  /**
   * Who may ask for the schema (`__schema`, `__type`) on /graphql and /graphql/stream: `public`
   * (anyone), `authenticated` (an account token, a console session or the operator token), or
   * `off`. The former booleans still parse: `true`/`1` mean `authenticated`, `false`/`0` mean `off`.
   */
  GRAPHQL_INTROSPECTION: z
    .enum(['public', 'authenticated', 'off', 'true', 'false', '1', '0'])
    .transform((v): 'public' | 'authenticated' | 'off' => (v === 'true' || v === '1' ? 'authenticated' : v === 'false' || v === '0' ? 'off' : v))
    .default('authenticated'),
  /** What one GraphQL document may ask for on /graphql and /graphql/stream (src/graphql/limits.ts). */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(10),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(10_000),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(1).default(1000),
  /** A JSON file of persisted operations; when set, only those run on /graphql and /graphql/stream. */
  GRAPHQL_ALLOWLIST: z.string().optional(),
  /** Request bodies: the routes that take files (src/http/body-limits.ts) and all others. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024 * 1024).default(40 * 1024 * 1024),
  DEFAULT_BODY_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /**
   * The body a request without credentials (no Authorization header, no session cookie) may send
   * to a route that needs a login (/graphql, /graphql/stream, /v1): past it, 401 before the body is
   * read (src/http/body-gate.ts).
   */
  ANONYMOUS_BODY_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  /**
   * The bearer token GET /metrics asks for. Unset, /metrics is not served on the public port
   * (404); Prometheus then scrapes METRICS_PORT.
   */
  METRICS_TOKEN: z.string().min(20, 'METRICS_TOKEN must be at least 20 characters').optional(),
  /** A port of its own where every process, whatever its roles, serves /metrics (on METRICS_HOST); unset, none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the METRICS_PORT listener binds: loopback unless the scraper is on another host. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  MAIL_FROM: z.string().default('no-reply@postbox.local'),
  MAIL_TRANSPORT: z
    .string()
    .regex(/^(capture|mx|smtps?:\/\/.+)$/, 'expected capture, mx, or an smtp:// or smtps:// URL')
    .default('capture'),
  MX_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  /** MX delivery and verification probes may connect to loopback/private/reserved addresses (tests, private networks only). */
  MX_ALLOW_PRIVATE: bool.default(false),
  MAIL_HELO_NAME: z.string().optional(),
  DELIVERY_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(8),
  DELIVERY_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Emails a worker process has in flight at once: built, handed to the transport and recorded. */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** `email.deliver` jobs (messages) one fetch takes; their statements are made per batch. */
  DELIVERY_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  /** SMTP connections kept open to one destination host (the smarthost, or each MX host). */
  DELIVERY_CONNECTIONS_PER_HOST: z.coerce.number().int().min(1).max(100).default(10),
  /** Database connections of the worker role's own pool, apart from the API's. */
  WORKER_DB_POOL: z.coerce.number().int().min(2).max(100).default(10),
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Template rendering (src/modules/templates/template.engine.ts): a send's time budget, and one part's allocations, output and blocks. */
  TEMPLATE_RENDER_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  TEMPLATE_MEMORY_LIMIT: z.coerce.number().int().min(1000).default(20_000_000),
  TEMPLATE_OUTPUT_MAX_CHARS: z.coerce.number().int().min(1024).default(4 * 1024 * 1024),
  TEMPLATE_MAX_STEPS: z.coerce.number().int().min(10).default(20_000),
  /**
   * The render pool (src/modules/templates/render.pool.ts): worker threads for the template renders
   * that may be expensive, terminated past TEMPLATE_RENDER_MS. Threads at most; renders that may
   * wait for one (more are refused at once); how long one may wait before the send gets a 503.
   */
  RENDER_POOL_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  RENDER_POOL_QUEUE: z.coerce.number().int().min(1).default(200),
  RENDER_POOL_WAIT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Email verification's SMTP probe: port, HELO name and MAIL FROM (default verify@SMTP_PUBLIC_HOST), time budget, per-MX-host limits. */
  VERIFY_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  VERIFY_HELO_NAME: z.string().optional(),
  VERIFY_MAIL_FROM: z.email().optional(),
  VERIFY_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  VERIFY_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
  VERIFY_HOST_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Verification lists: addresses per job run, checks side by side within a run, list jobs per worker process. */
  VERIFY_LIST_CHUNK_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  VERIFY_LIST_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
  VERIFY_LIST_JOBS: z.coerce.number().int().min(1).max(16).default(2),
  /** Blocklist monitoring: DNSBL zones (comma-separated) for IPs and for domains, the re-check cron and interval. */
  BLOCKLIST_IP_ZONES: z.string().default('zen.spamhaus.org,bl.spamcop.net,b.barracudacentral.org,dnsbl.sorbs.net'),
  BLOCKLIST_DOMAIN_ZONES: z.string().default('dbl.spamhaus.org,multi.uribl.com,multi.surbl.org'),
  BLOCKLIST_CHECK_CRON: z.string().default('0 * * * *'),
  BLOCKLIST_CHECK_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(360),
  /** DMARC monitoring: when every monitored domain's DMARC and SPF records are looked up again. */
  DMARC_CHECK_CRON: z.string().default('0 */6 * * *'),
  /** Retention (accounts/plans.ts RETENTION_DAYS): when the purge runs, rows per delete statement, and its time budget per run. */
  RETENTION_PURGE_CRON: z.string().default('41 * * * *'),
  RETENTION_PURGE_BATCH: z.coerce.number().int().min(100).max(100_000).default(5000),
  RETENTION_PURGE_SECONDS: z.coerce.number().int().min(1).max(3000).default(300),
  /** The domain of monitors' report addresses (`dmarc+<key>@<domain>`); INBOUND_MX_HOST when unset. */
  DMARC_REPORT_DOMAIN: z.string().regex(/^[a-z0-9.-]+$/i, 'expected a domain name').optional(),
  /** SMS: capture (offline, every text delivered) or twilio (Messages REST API at TWILIO_BASE_URL). */
  SMS_PROVIDER: z.enum(['capture', 'twilio']).default('capture'),
  TWILIO_BASE_URL: z.url().default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Unset: allowed in the sandbox (DOMAIN_VERIFICATION=trust), refused otherwise. */
  WEBHOOK_ALLOW_PRIVATE: bool.optional(),
  WEBHOOK_TEST_SECRET: z.string().min(8).default('postbox-webhook-test-signing-secret'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
  WEBHOOK_RETRY_WINDOW_HOURS: z.coerce.number().min(0.001).default(72),
  /** Webhook requests a worker has in flight at once (a round claims four times as many). */
  WEBHOOK_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(50),
  /** Kept-alive connections per receiver origin at most; its requests beyond that wait for one. */
  WEBHOOK_CONNECTIONS_PER_ORIGIN: z.coerce.number().int().min(1).max(256).default(10),
  SMTP_TLS_CERT: z.string().optional(),
  SMTP_TLS_KEY: z.string().optional(),
  /** Where feedback loops send ARF complaints (any address; reports to return paths work without it). */
  FEEDBACK_ADDRESS: z.email().optional(),
  SMTP_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).default(40 * 1024 * 1024),
  /** Largest DSN or ARF report accepted without login (src/modules/smtp/ingress.ts says why each size). */
  SMTP_MAX_REPORT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Largest DMARC aggregate report mail accepted without login. */
  SMTP_MAX_DMARC_BYTES: z.coerce.number().int().min(1024).default(4 * 1024 * 1024),
  /** Largest inbound-route mail accepted without login: fits one 25 MB attachment, base64-encoded. */
  SMTP_MAX_INBOUND_BYTES: z.coerce.number().int().min(1024).default(36 * 1024 * 1024),
  /**
   * XML the DMARC reports of one upload or one mail may unpack to, all together (zip, gzip or
   * plain): aggregate reports are kilobytes to a few MB of XML; reading one costs about 20 times
   * its size in heap (src/modules/dmarc/aggregate.ts has the other report limits).
   */
  DMARC_MAX_REPORT_BYTES: z.coerce.number().int().min(64 * 1024).default(10 * 1024 * 1024),
  /**
   * What one inbound-route message may hold, counted while it is parsed (src/lib/bounded-mail.ts):
   * MIME parts (containers included), attachments, and decoded bytes of all parts together. Past
   * one, the SMTP listener answers 554 / 552 and nothing is stored.
   */
  INBOUND_MAX_MIME_PARTS: z.coerce.number().int().min(2).max(1000).default(250),
  INBOUND_MAX_ATTACHMENTS: z.coerce.number().int().min(1).default(100),
  INBOUND_MAX_DECODED_BYTES: z.coerce.number().int().min(1024).default(36 * 1024 * 1024),
  /**
   * Untrusted input (DMARC report files, inbound, relayed, bounce and DMARC report mail, JSON
   * request bodies over 256 KB: src/http/json-body.ts) is parsed in worker threads
   * (src/lib/untrusted-pool.ts): threads per kind of input, and the hard limit of one parse,
   * past which its thread is terminated and the input refused.
   */
  UNTRUSTED_PARSE_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  UNTRUSTED_PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** Bytes the messages of sessions without login may hold at once, all together; past it, 452. */
  SMTP_UNAUTHENTICATED_BUFFER_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  /** Open SMTP connections at most; more are greeted with 421. */
  SMTP_MAX_CLIENTS: z.coerce.number().int().min(1).default(200),
  /** Open SMTP connections at most from one remote address; more are greeted with 421. */
  SMTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /** Lets loopback clients log in without STARTTLS (everyone else always needs it). */
  SMTP_ALLOW_INSECURE_AUTH_LOOPBACK: bool.default(false),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(30),
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(60),
  /**
   * V8's heap growing factor, as 1 + this / 100, set by main.ts at start (0: V8's own, which lets
   * the old generation grow up to 4× what survived the last full GC before the next one). The api
   * and the worker promote request and delivery data they drop soon after, so V8's own factor grows
   * their heaps by about 150 MB under load before a full GC (README, Performance: Memory).
   * Left unset, main.ts picks it by role (heapGrowingPercent).
   */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(300).optional(),
  /**
   * Whether V8's mid-tier optimizing compiler (Maglev) runs, set by main.ts at start. Left unset,
   * main.ts turns it off in a process with the api role but not the worker's (maglevOn):
   * its compile jobs allocate through malloc on background threads, and glibc keeps that memory
   * resident (README, Performance: Memory).
   */
  MAGLEV: bool.optional(),
  /** How long a live-subscription NOTIFY waits for others to go out with it in one statement (lib/pubsub.ts). */
  PUBSUB_FLUSH_MS: z.coerce.number().int().min(0).max(1000).default(5),
  /**
   * How long a process keeps an account's plan and sending domains for accepting sends, at most
   * (0: not kept). Changes reach every process sooner, by NOTIFY (sending/sender.cache.ts).
   */
  SEND_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
  /**
   * Acceptance statements one process runs at once, and the most sends one of them writes: sends
   * arriving while they run go together in the next (sending/accept.batch.ts). 1 writes each alone.
   */
  ACCEPT_LANES: z.coerce.number().int().min(1).max(100).default(2),
  ACCEPT_BATCH_MAX: z.coerce.number().int().min(1).max(500).default(32),
  /**
   * Requests one API token may make per window (unset: its account's plan decides,
   * modules/accounts/plans.ts), and the window's length; the window starts at the token's first
   * request after the last one ended.
   */
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).optional(),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Requests one account may make per window over all its tokens and SMTP users (unset: ten tokens' worth). */
  ACCOUNT_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).optional(),
  /** Requests one account may make per UTC day, over all its tokens. */
  API_QUOTA_PER_DAY: z.coerce.number().int().min(1).default(100_000),
  /**
   * How long a process keeps an authenticated API token without reading it again, at most (0: not
   * kept). A pause, a deletion or a plan change reaches every process sooner, by NOTIFY
   * (modules/tokens/token.cache.ts); this age is the fallback when a notice is lost.
   */
  TOKEN_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /** How often a process writes the API requests it counted in memory (modules/quota/meter.ts). */
  METER_FLUSH_MS: z.coerce.number().int().min(10).max(5000).default(250),
  /**
   * Requests one process may count for one token or account without writing them; past this it
   * writes before deciding. With P processes a limit can be passed by at most (P - 1) x this.
   */
  METER_MAX_PENDING: z.coerce.number().int().min(1).max(100_000).default(100),
  /** A console session ends after this long without a request (modules/users/session.service.ts). */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(120),
  /** A console session ends this long after login, however active. */
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(24 * 7),
  /** How old a password may be for a user with requires_periodic_password_change before it must change. */
  PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(1).default(90),
  /**
   * Failed console logins (and other checks of a password, a second factor or a link's token) per
   * window, counted by each API process on its own: per address, per client (an IPv4 address or an
   * IPv6 /64) and over all of them together, so neither one client spraying many addresses nor many
   * clients can guess without limit. Past one, 429 with Retry-After (modules/users/login-limiter.ts).
   */
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(15),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_CLIENT: z.coerce.number().int().min(1).default(20),
  LOGIN_MAX_FAILURES_GLOBAL: z.coerce.number().int().min(1).default(1000),
  /** Addresses and clients each login counter table holds; when full of open windows, new ones are refused (429). */
  LOGIN_TRACKED_KEYS: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  /**
   * Password hashes (scrypt) one process runs at once, console logins and SMTP AUTH together, and
   * how many more may wait for one; past that a login is refused (503 with Retry-After, or 454
   * over SMTP) rather than queued (lib/password-hashing.ts).
   */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(8),
  /** How long an invitation link works after it was mailed (a resend mails a fresh one); fractions allowed. */
  INVITE_TTL_HOURS: z.coerce.number().positive().max(24 * 90).default(24 * 7),
});

type Parsed = z.infer<typeof configSchema>;
/** The settings once defaults that depend on other settings are settled. */
export type Config = Omit<Parsed, 'DOMAIN_VERIFICATION' | 'WEBHOOK_ALLOW_PRIVATE'> & {
  DOMAIN_VERIFICATION: 'dns' | 'trust';
  WEBHOOK_ALLOW_PRIVATE: boolean;
  PUBLIC_URL: string;
  APP_SECRET: string;
};

export class ConfigError extends Error {}

/** Parses settings from an env-like object. APP_SECRET may still be absent here; boot fills it. */
export function parseConfig(env: Record<string, string | undefined> = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  if (result.data.SMS_PROVIDER === 'twilio' && (!result.data.TWILIO_ACCOUNT_SID || !result.data.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('Invalid settings:\n  SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  // The sandbox: with mail kept on the machine, domains need no DNS to send. Nothing ever leaves
  // it unverified, since `trust` cannot be combined with a transport that delivers.
  const capture = result.data.MAIL_TRANSPORT === 'capture';
  const verification = result.data.DOMAIN_VERIFICATION ?? (capture ? 'trust' : 'dns');
  if (verification === 'trust' && !capture) {
    throw new ConfigError('Invalid settings:\n  DOMAIN_VERIFICATION=trust needs MAIL_TRANSPORT=capture: mail leaves the machine only from domains verified through DNS');
  }
  return {
    ...result.data,
    DOMAIN_VERIFICATION: verification,
    WEBHOOK_ALLOW_PRIVATE: result.data.WEBHOOK_ALLOW_PRIVATE ?? verification === 'trust',
  };
}
