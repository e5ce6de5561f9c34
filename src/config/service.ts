import { z } from 'zod';
import { bool, hostPortList } from './values.js';
import { PLANS } from './plans.js';

/** The service and its database (docs/configuration.md). */
export const serviceSettings = {
  NODE_ENV: z
    .string()
    .default('production')
    .describe('`development` makes GraphQL errors suggest field names ("Did you mean"), which helps a developer and tells an attacker too; nothing else reads it.'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('HTTP port of the api role (`0` picks a free one).'),
  HOST: z.string().default('0.0.0.0').describe('Address the HTTP listener binds.'),
  PUBLIC_URL: z.url().optional().meta({
    description: 'Base of the links the service writes: pagers, confirmation, invitation and reset links, tracking links (unless a custom tracking domain is active), Twilio callbacks.',
    defaultText: '`http://localhost:<PORT>`',
  }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | number | string => (v === undefined || v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v))
    .meta({
      description: "fastify's `trustProxy`: `true`, a hop count, or the proxies' addresses or CIDRs. When set, client addresses (tracking's country, the audit log, the login counters per client) come from `X-Forwarded-For`; behind a proxy without it, every client shares one login budget.",
      defaultText: '`false`',
    }),
  DATABASE_URL: z.string().optional().describe('PostgreSQL to use. Unset, a process of several roles (`npm start`) starts an embedded PostgreSQL under `DATA_DIR`; a process of one role (`npm run start:api`, `start:worker`, `start:smtp`) needs it, as its other roles must reach the same database.'),
  DATABASE_WAIT_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(60)
    .describe("How long a starting process waits for the database to take connections (a database starting or restarting) before it exits; a worker's start statements are retried as long."),
  DATA_DIR: z.string().default('./.data').describe('Folder of the embedded PostgreSQL (`pg/`), the generated `app-secret`, `admin-token` and `owner-link`, and the generated SMTP certificate (`smtp-tls/`).'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433).describe('Port of the embedded PostgreSQL (loopback only).'),
  EMBEDDED_PG_DIR: z.string().optional().meta({
    description: 'Folder of the embedded PostgreSQL cluster; its password is kept next to it as `<dir>.password`.',
    defaultText: "`DATA_DIR/pg`; as root, when the `postgres` user cannot reach it, `/var/lib/postbox/db-<hash of DATA_DIR>/pg`",
  }),
  APP_SECRET: z
    .string()
    .min(32, 'APP_SECRET must be at least 32 characters')
    .optional()
    .meta({
      description: 'Key material for encrypting DKIM private keys, webhook secrets and TOTP secrets, and for signing links. Every process of an install must share it: set it explicitly when several hosts share a database, and keep it with the database backups.',
      defaultText: 'generated once into `DATA_DIR/app-secret`',
    }),
  ADMIN_TOKEN: z
    .string()
    .min(20, 'ADMIN_TOKEN must be at least 20 characters')
    .optional()
    .meta({
      description: "Secret of the first account's admin token, read at the first start only (an empty database).",
      defaultText: 'generated, printed once and written to `DATA_DIR/admin-token`',
    }),
  ADMIN_EMAIL: z
    .email()
    .optional()
    .describe("Email of the first account's admin user, read at the first start only. Unset, an owner link is printed and written to `DATA_DIR/owner-link` instead."),
  OPERATOR_TOKEN: z
    .string()
    .min(20, 'OPERATOR_TOKEN must be at least 20 characters')
    .optional()
    .describe('Bearer token of the operator API (GraphQL `operator_*` operations). Unset, the operator API is off.'),
  DEFAULT_PLAN: z
    .enum(PLANS)
    .default('enterprise')
    .describe("Plan of the accounts the service creates (the first one, and `operator_create_account`'s). It gates features (SPEC.md) and sets the default rate limits."),
  DEFAULT_VERIFICATION_CREDITS: z.coerce.number().int().min(0).default(1000).describe('Email verification credits of the accounts the service creates.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino log level.'),
  DNS_SERVERS: hostPortList.optional().meta({
    description: 'Comma-separated `host:port` list used for every DNS lookup the service makes (domain checks, MX delivery, verification, DNSBL, DMARC).',
    defaultText: "the system's resolver",
  }),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000).describe('Time limit of one DNS try.'),
  METRICS_TOKEN: z
    .string()
    .min(20, 'METRICS_TOKEN must be at least 20 characters')
    .optional()
    .describe('Bearer token of `GET /metrics` on the public port. Unset, the public port does not serve it (404); Prometheus then scrapes `METRICS_PORT`.'),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe('A port of its own where every process, whatever its roles, serves `GET /metrics`, on `METRICS_HOST`; it also asks for `METRICS_TOKEN` when that is set. Unset, none.'),
  METRICS_HOST: z.string().default('127.0.0.1').describe('Address the `METRICS_PORT` listener binds: loopback unless the scraper is on another host.'),
  WORKER_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(3)
    .max(300)
    .default(15)
    .describe(
      "How long a worker's claim on emails and webhook deliveries lasts without renewal; a live worker renews its claims every third of it. A worker that dies or freezes has its claims taken over by another within about this and a third of it, so a crash delays mail and webhooks by seconds and sends nothing twice outside the SMTP window. Shorter recovers sooner but lets a worker whose event loop stalls this long lose its claims.",
    ),
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(60).describe('How often pg-boss looks for jobs whose worker died or that expired.'),
  JOB_OUTBOX_POLL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("How often each worker process looks for jobs waiting in the job outbox (a send's delivery job, written with the send) besides being woken: a statement that writes such a job wakes the relays by NOTIFY, and a relay moves what waits whenever its LISTEN connection (re)connects, so this only catches a wake that was missed or a move that failed."),
  PUBSUB_FLUSH_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(5)
    .describe("How long a live-subscription notice waits for others before they all go out in one `pg_notify` statement on the pubsub's own connections, after the transaction that caused them committed. Notices go only to topics some process subscribes to (processes announce their topics on the `postbox_interest` channel at once and every 10 s, valid for 30 s); a notice may be lost (NOTIFY keeps no backlog), stored data never is."),
  HEAP_GROWING_PERCENT: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .optional()
    .meta({
      description: "How far V8 lets the JavaScript heap grow past what survived its last full garbage collection before the next one, in percent (set as `--heap-growing-percent` by each entry, `dist/src/main*.js`, before the app's code loads; NODE_OPTIONS does not take it). `0` leaves V8's own factor, up to 4×, which lets the api's and the worker's heaps grow far under load with data they drop soon after. Lower keeps less memory resident for more full collections; the worker's default is higher because the messages it builds fill its old generation, and a higher factor spends less CPU per delivered message for a little more memory.",
      defaultText: '`30` for a process with the api role, `45` without it',
    }),
  MAGLEV: bool.optional().meta({
    description: "Whether V8's mid-tier optimizing compiler, Maglev, runs (set as `--no-maglev` when false by each entry, `dist/src/main*.js`, before the app's code loads). Maglev's compile jobs allocate through malloc on background threads, and glibc keeps what they free resident, a sizeable share of the api's peak memory. Without it a hot function runs in the baseline tier until TurboFan optimizes it, for more CPU per request in the api; a process with the worker role keeps it, as the worker's CPU bounds the delivery drain. `true` trades that memory for the CPU.",
    defaultText: "`false` for a process with the api role and not the worker's, `true` for the others (`npm start`'s single process keeps it)",
  }),
};
