import { z } from 'zod';
import { bool } from './values.js';
import { RETENTION_DAYS, RETENTION_DAYS_MAX, type Plan } from './plans.js';

/** A plan's retention days, its default the product's (plans.ts RETENTION_DAYS). */
const retentionDays = (plan: Plan) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(RETENTION_DAYS_MAX)
    .default(RETENTION_DAYS[plan])
    .describe(
      `Days the mail an account on the ${plan} plan sends is kept (by the plan at send time), and its other logs (by its plan now). The operator API's \`operator_set_retention\` overrides it while set; see docs/api-behaviour.md, Retention.`,
    );

/** Webhooks, verification, monitoring, retention and SMS (docs/configuration.md). */
export const featureSettings = {
  WEBHOOK_ALLOW_PRIVATE: bool.optional().meta({
    description: 'Lets webhooks reach loopback, private, link-local, CGNAT and other non-public addresses (local development, tests). When `false` the address is checked at connect time, so DNS rebinding cannot get around it.',
    defaultText: '`true` in the sandbox (`DOMAIN_VERIFICATION=trust`), else `false`',
  }),
  WEBHOOK_TEST_SECRET: z
    .string()
    .min(8)
    .default('postbox-webhook-test-signing-secret')
    .describe('Signing secret of the `webhook.test` request sent when a webhook is created or updated. Every webhook request carries `Signature` (hex HMAC-SHA256 of the body) and `webhook-id`/`webhook-timestamp`/`webhook-signature` (`v1,` base64 HMAC-SHA256 of `id.timestamp.body`), both keyed with the secret\'s UTF-8 bytes as shown (not base64-decoded like `whsec_` secrets).'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000).describe('Whole-request timeout of a webhook call (connect, send, answer); redirects are not followed.'),
  WEBHOOK_RETRY_WINDOW_HOURS: z.coerce
    .number()
    .min(0.001)
    .default(72)
    .describe("How long a failing webhook delivery is retried (backoff from 30 s doubling to 6 h, with jitter; a 429's `Retry-After` wins); past it the delivery gives up and the webhook is paused."),
  WEBHOOK_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .describe('Webhook requests a worker has in flight at once, across receivers; a round claims four times as many due deliveries (one statement) and records their outcomes together.'),
  WEBHOOK_CONNECTIONS_PER_ORIGIN: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .default(10)
    .describe("Kept-alive connections per receiver origin (scheme, host, port) at most; a receiver's requests beyond that wait for one of its connections, and their timeout starts once they have it."),
  VERIFY_SMTP_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .default(25)
    .describe('Port of the MX hosts that email verification probes (EHLO, MAIL FROM, RCPT TO, never DATA).'),
  VERIFY_HELO_NAME: z.string().optional().meta({ description: 'Name the verification probe gives in EHLO.', defaultText: '`MAIL_HELO_NAME`, else `SMTP_PUBLIC_HOST`' }),
  VERIFY_MAIL_FROM: z.email().optional().meta({ description: 'Envelope sender of the verification probe.', defaultText: '`verify@<SMTP_PUBLIC_HOST>`' }),
  VERIFY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('Time budget of one address check (DNS, the wait for the host limits, and the probe); past it the result is `failed`.'),
  VERIFY_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2).describe('Verification probes open at once per MX host, per process.'),
  VERIFY_HOST_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Verification probes started per MX host in any 60 s, per process; a check that cannot start within its budget is `failed`.'),
  VERIFY_LIST_CHUNK_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .describe('Addresses of a verification list one job run takes; the job queues itself again until none is left, so pause and cancel act between runs.'),
  VERIFY_LIST_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5).describe('Addresses of one run checked side by side.'),
  VERIFY_LIST_JOBS: z.coerce.number().int().min(1).max(16).default(2).describe('List runs (of different lists) a worker process works on at once.'),
  BLOCKLIST_IP_ZONES: z
    .string()
    .default('zen.spamhaus.org,bl.spamcop.net,b.barracudacentral.org,dnsbl.sorbs.net')
    .describe('DNSBL zones asked for monitored IPs (reversed octets or IPv6 nibbles, then the zone), comma-separated.'),
  BLOCKLIST_DOMAIN_ZONES: z
    .string()
    .default('dbl.spamhaus.org,multi.uribl.com,multi.surbl.org')
    .describe('Domain blocklist zones asked for monitored domains (`<domain>.<zone>`), comma-separated.'),
  BLOCKLIST_CHECK_CRON: z.string().default('0 * * * *').describe('When blocklist monitors whose `next_check` has come are checked again (cron, UTC).'),
  BLOCKLIST_CHECK_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(360).describe("A blocklist monitor's `next_check` is this long after its `last_check`."),
  DMARC_CHECK_CRON: z
    .string()
    .default('0 */6 * * *')
    .describe("When every DMARC monitor's `_dmarc.<domain>` and `v=spf1` TXT records are looked up again (cron, UTC)."),
  DMARC_REPORT_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'expected a domain name')
    .optional()
    .meta({
      description: "Domain of the DMARC monitors' report addresses (`dmarc+<key>@<domain>`). Its MX must reach the smtp role, and it must publish `*._report._dmarc.<domain> TXT \"v=DMARC1\"` so receivers send other domains' reports to it (RFC 7489 7.1).",
      defaultText: '`INBOUND_MX_HOST`',
    }),
  RETENTION_DAYS_FREE: retentionDays('free'),
  RETENTION_DAYS_STARTER: retentionDays('starter'),
  RETENTION_DAYS_PROFESSIONAL: retentionDays('professional'),
  RETENTION_DAYS_ENTERPRISE: retentionDays('enterprise'),
  RETENTION_PURGE_CRON: z
    .string()
    .default('41 * * * *')
    .describe("When the retention purge (`retention.purge`) deletes what is past its plan's retention (cron, UTC); see docs/api-behaviour.md, Retention."),
  RETENTION_PURGE_BATCH: z.coerce
    .number()
    .int()
    .min(100)
    .max(100_000)
    .default(5000)
    .describe('Rows one delete statement of the purge takes at most (messages count with their emails and activities); it loops until a table has nothing more due.'),
  RETENTION_PURGE_SECONDS: z.coerce.number().int().min(1).max(3000).default(300).describe('Time budget of one purge run; what is left waits for the next run.'),
  SMS_PROVIDER: z
    .enum(['capture', 'twilio'])
    .default('capture')
    .describe("`capture` (offline: texts are stored and reported delivered) or `twilio` (Twilio's Messages REST API at `TWILIO_BASE_URL`)."),
  TWILIO_BASE_URL: z.url().default('https://api.twilio.com').describe('Base URL of the Twilio API (tests point it at a local server speaking its shape).'),
  TWILIO_ACCOUNT_SID: z.string().optional().describe('Twilio account SID; required with `SMS_PROVIDER=twilio`.'),
  TWILIO_AUTH_TOKEN: z
    .string()
    .optional()
    .describe('Twilio auth token; required with `SMS_PROVIDER=twilio`. It also checks the `X-Twilio-Signature` of status callbacks and inbound texts.'),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000).describe('Time limit of one request to the SMS provider.'),
};
