import { z } from 'zod';
import { bool, jsonText } from './values.js';
import { BUILT_IN_SITES, siteOverride, type SiteOverrides } from '../lib/shaping.js';
import { DEFAULT_WARMUP, ipPoolsSchema, type IpPools } from '../lib/ip-pools.js';

/** Domains, delivery and templates (docs/configuration.md). */
export const deliverySettings = {
  SPF_INCLUDE: z.string().default('_spf.postbox.local').describe("The `include:` a domain's SPF record must carry."),
  DKIM_SELECTOR: z.string().regex(/^[a-z0-9-]+$/).default('pb1').describe('DKIM selector of new domains.'),
  RETURN_PATH_TARGET: z
    .string()
    .default('return.postbox.local')
    .describe("CNAME target of each domain's return-path subdomain, and the envelope sender's host (`bounces+<email id>@<this>`) while a domain's return-path CNAME is not verified. It must receive mail for the smtp role (an MX or A record)."),
  TRACKING_TARGET: z
    .string()
    .default('track.postbox.local')
    .describe("CNAME target of each domain's tracking subdomain: a host that reaches the api role (or the proxy in front of it) on `PUBLIC_URL`'s scheme and standard port, with a TLS certificate for the tracking hosts when that scheme is https."),
  INBOUND_MX_HOST: z
    .string()
    .default('inbound.postbox.local')
    .describe("MX host of each domain's inbound subdomain, and the domain of every inbound route's own address (`<16 random>@<host>`)."),
  DOMAIN_CHECK_CRON: z.string().default('*/15 * * * *').describe('When unverified domains are checked again (cron, UTC).'),
  DOMAIN_REQUIRE_DNS: bool
    .default(true)
    .describe('New domain names must resolve (only a definite NXDOMAIN refuses). `false` for air-gapped installs whose resolver knows no outside names. The sandbox asks no DNS.'),
  DOMAIN_VERIFICATION: z
    .enum(['dns', 'trust'])
    .optional()
    .meta({
      description: '`dns`: a domain is verified when its DKIM and SPF records are found. `trust`: the sandbox, where a new domain is verified on creation without DNS; allowed only with `MAIL_TRANSPORT=capture` (the service refuses to start otherwise). Started with `dns`, the service unverifies domains that were only trusted until their records are found, and a worker whose transport delivers refuses their messages.',
      defaultText: '`trust` with `MAIL_TRANSPORT=capture`, else `dns`',
    }),
  MAIL_FROM: z.string().default('no-reply@postbox.local').describe('Sender of the mail the service writes itself (confirmations, invitations, resets, alerts).'),
  MAIL_TRANSPORT: z
    .string()
    .regex(/^(capture|mx|smtps?:\/\/.+)$/, 'expected capture, mx, or an smtp:// or smtps:// URL')
    .default('capture')
    .describe("How mail leaves, the service's own and customers' alike: `capture` (kept in the database, readable with `operator_captured_mail` and `GET /v1/captured-emails`, counted as delivered; works offline), `mx` (straight to the recipients' MX hosts, found through `DNS_SERVERS`), or a smarthost URL `smtp://user:pass@host:port` or `smtps://...`."),
  MX_PORT: z.coerce.number().int().min(1).max(65535).default(25).describe('Port of MX hosts for `MAIL_TRANSPORT=mx`.'),
  MX_ALLOW_PRIVATE: bool
    .default(false)
    .describe('Lets MX delivery and verification probes connect to loopback, private, link-local, CGNAT and reserved addresses. Leave it off in production; for tests and mail servers inside a private network.'),
  MTA_STS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .default(443)
    .describe("HTTPS port of recipient domains' MTA-STS policy hosts (`mta-sts.<domain>`) with `MAIL_TRANSPORT=mx`; 443 as RFC 8461 says, another only for tests."),
  OUTBOUND_TLS_CA_FILE: z
    .string()
    .optional()
    .describe("A PEM file of certificate authorities trusted beside the system's when delivery checks a certificate (MTA-STS policy hosts, and MX hosts of a domain whose policy is `enforce` or `testing`): a private PKI, or tests."),
  DANE_RESOLVER: z
    .string()
    .regex(/^[^\s:]+(:\d+)?$|^\[[0-9a-f:]+\](:\d+)?$/i, 'expected host:port')
    .optional()
    .describe("A DNSSEC-validating resolver (`host:port`, e.g. a local Unbound) that MX delivery asks for TLSA records: with it, an MX host whose domain's MX answer and whose `_<MX_PORT>._tcp` TLSA answer validated is delivered to only over STARTTLS with a certificate the records match (DANE, RFC 7672), before MTA-STS. Its AD bit is trusted: run it on the machine or a network you trust. Unset: no DANE."),
  MAIL_HELO_NAME: z.string().optional().meta({ description: 'Name the service gives in EHLO when it delivers.', defaultText: "the machine's host name" }),
  DELIVERY_RETRY_LIMIT: z.coerce
    .number()
    .int()
    .min(0)
    .max(50)
    .default(8)
    .describe('Retries of a message whose emails were deferred (4xx, timeout, connection failure) before they count as soft bounces.'),
  DELIVERY_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(60).describe('First retry delay of a deferred message; it doubles each time, with jitter.'),
  DELIVERY_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(64)
    .describe('Emails a worker process has in flight at once: each is built, DKIM-signed, handed to the transport and its outcome committed before its slot is free, so it also bounds what a killed worker can leave between a 250 and its record.'),
  DELIVERY_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(50)
    .describe("`email.deliver` jobs (messages) one fetch takes; a batch's messages are taken, their emails claimed and their suppressions read in a few statements for the whole batch."),
  DELIVERY_CONNECTIONS_PER_HOST: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .describe('SMTP connections kept open and reused per destination: the smarthost, or with `MAIL_TRANSPORT=mx` each site without limits of its own in `DELIVERY_SHAPING` (a pool unused for a minute is closed).'),
  DELIVERY_SHAPING: jsonText
    .pipe(
      z.record(z.string().regex(/^[a-z0-9_.-]{1,64}$/, 'a site name is letters, digits, _ . -'), siteOverride).superRefine((sites, ctx) => {
        for (const [name, site] of Object.entries(sites)) {
          const known = name === 'default' || BUILT_IN_SITES.some((b) => b.name === name);
          if (!known && !site.mx) ctx.addIssue({ code: 'custom', message: `the new site ${name} needs its "mx" patterns` });
        }
      }),
    )
    .optional()
    .meta({
      description:
        'Traffic shaping per destination site with `MAIL_TRANSPORT=mx`, as JSON: `{"<site>": {"mx": ["*.example.net"], "connections": 5, "messages_per_connection": 100, "per_minute": 600, "per_hour": 20000}}`. An entry named `gmail`, `microsoft`, `yahoo` or `apple` changes that built-in site\'s limits, `default` those of every other site, and any other name is a new site matching its `mx` patterns. Rates (`null`: none) count every worker together and are spaced evenly; connections count per worker process. See docs/delivery.md.',
      defaultText: 'the built-in sites of docs/delivery.md',
    }) as z.ZodType<SiteOverrides | undefined>,
  IP_POOLS: jsonText
    .pipe(ipPoolsSchema)
    .optional()
    .meta({
      description:
        'Source addresses of MX delivery, as JSON pools of local addresses: `{"<pool>": [{"address": "192.0.2.10", "ehlo": "mta1.example.com", "warmed": false}]}`. The operator gives an account or a domain a pool (`operator_set_ip_pool`); the rest use the pool `default` if there is one, else the address the machine picks. `ehlo` is the name given in EHLO from that address, checked against its reverse DNS when delivery starts and hourly (without it, the reverse DNS name is used). A new address is capped by `IP_WARMUP_SCHEDULE` unless `warmed`. Set it alike on the api role, which checks pool names. See docs/delivery.md.',
      defaultText: 'none: the machine picks the address',
    }) as z.ZodType<IpPools | undefined>,
  IP_WARMUP_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'expected daily caps separated by commas')
    .transform((text) => text.split(',').map(Number))
    .pipe(z.array(z.number().int().min(1).max(100_000_000)).min(1).max(365))
    .default([...DEFAULT_WARMUP])
    .meta({
      description: "Daily caps of a new source address of `IP_POOLS`, one per day from its first send (UTC days); past the last it has none. Mail over the day's cap of every address of its pool waits for the next day.",
      defaultText: `\`${DEFAULT_WARMUP.join(',')}\``,
    }),
  TLS_REPORT_CRON: z
    .string()
    .default('20 0 * * *')
    .describe("When the TLS reports (RFC 8460) of the previous UTC day are sent to the recipient domains whose `_smtp._tls` record asks for them (cron, UTC); `MAIL_TRANSPORT=mx` only."),
  TLS_REPORT_ORGANIZATION: z
    .string()
    .max(253)
    .optional()
    .meta({ description: "The `organization-name` and submitter of the TLS reports delivery sends.", defaultText: "`PUBLIC_URL`'s host name" }),
  DELIVERY_SLOWDOWN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(60)
    .describe('How long a destination site is suspended, for every worker, after its servers ask to slow down (421, rate-limit codes); it doubles with each slow-down in a row, and one is forgiven after ten times this without another. Each slow-down also halves the site\'s rates until it is forgiven.'),
  WORKER_DB_POOL: z.coerce.number().int().min(2).max(100).default(10).describe("Database connections of the worker role's own pool, apart from the API's 10."),
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000).describe('SMTP connection, greeting and socket timeout of deliveries.'),
  TEMPLATE_RENDER_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(500)
    .describe("Time budget of template rendering: for all of a send's recipients when it is accepted (past it: 422), and for each email at delivery. A render past it is terminated."),
  TEMPLATE_MEMORY_LIMIT: z.coerce
    .number()
    .int()
    .min(1000)
    .default(20_000_000)
    .describe("liquidjs `memoryLimit` of one render: the characters and items its filters, ranges and `{% capture %}` may allocate (`(1..N)`, `join`, `append`, ...)."),
  TEMPLATE_OUTPUT_MAX_CHARS: z.coerce.number().int().min(1024).default(4 * 1024 * 1024).describe('Characters one rendered subject, html or text may have.'),
  TEMPLATE_MAX_STEPS: z.coerce
    .number()
    .int()
    .min(10)
    .default(20_000)
    .describe('Blocks one render may render: each loop iteration and each `if`/`else` branch taken counts one.'),
  RENDER_POOL_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe('Worker threads of the render pool, where every render but plain `{{var}}` over small data runs (terminated past `TEMPLATE_RENDER_MS`).'),
  RENDER_POOL_QUEUE: z.coerce
    .number()
    .int()
    .min(1)
    .default(200)
    .describe('Renders that may wait for a thread; more get 503 at once. Keep it at or above `DELIVERY_CONCURRENCY`.'),
  RENDER_POOL_WAIT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(10_000)
    .describe('How long a render may wait for a thread before the send gets 503 (delivery retries later).'),
};
