import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's metrics, in one registry that `/metrics` serves. Module-level on purpose: a
 * counter is process state like a socket, and the worker and the SMTP relay count into the same
 * registry as the API when they share a process. Each process (role) exposes its own figures;
 * Prometheus sums them.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Sends accepted, by surface (`rest`, `graphql`, `smtp`, `bulk`) and outcome (`queued`, `scheduled`, `paused`, `suppressed`). */
export const sendsAccepted = new Counter({
  name: 'postbox_sends_accepted_total',
  help: 'Messages accepted for sending, by surface and first status',
  labelNames: ['surface', 'status'],
  registers: [registry],
});

/** How long accepting a send took, from validation to commit. */
export const sendAcceptSeconds = new Histogram({
  name: 'postbox_send_accept_seconds',
  help: 'Time to validate and durably accept one send (validation to commit)',
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** Sends per acceptance statement: above 1 when concurrent sends share one (sending/accept.batch.ts). */
export const acceptStatementSends = new Histogram({
  name: 'postbox_accept_statement_sends',
  help: 'Sends written by one acceptance statement (group commit under load)',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128],
  registers: [registry],
});

/**
 * Delivery outcomes of emails (one per recipient): delivered, soft_bounced, hard_bounced, deferred,
 * suppressed, by reason: the receiver's answer in a few classes (lib/delivery-reason.ts).
 */
export const emailDeliveries = new Counter({
  name: 'postbox_email_deliveries_total',
  help: 'Emails handed to the transport, by outcome and reason (none, connection, rate_limited, mailbox_full, unknown_recipient, policy, content, other)',
  labelNames: ['outcome', 'reason'],
  registers: [registry],
});

/** The SMTP exchange of one message, connection reuse included. */
export const deliverySeconds = new Histogram({
  name: 'postbox_delivery_seconds',
  help: 'Time to hand one message to the mail transport',
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** Webhook delivery attempts by result (`delivered`, `failed`). */
/**
 * MX deliveries to domains with an MTA-STS policy (RFC 8461), by the policy's mode and what came
 * of it: ok (a matching MX host, a valid certificate), mx_mismatch (no MX host the policy names),
 * tls_failed (no TLS with a valid certificate). In testing mode the mail still went, unchecked.
 */
/** MX deliveries under DANE (RFC 7672): `ok`, or `failed` (no verified connection; the host was not used). */
export const daneOutcomes = new Counter({
  name: 'postbox_dane_total',
  help: 'MX deliveries to hosts with secure TLSA records, by outcome and destination site.',
  labelNames: ['result', 'site'] as const,
  registers: [registry],
});

export const mtaStsOutcomes = new Counter({
  name: 'postbox_mta_sts_total',
  help: 'MX deliveries to domains with an MTA-STS policy, by mode, outcome and destination site.',
  labelNames: ['mode', 'result', 'site'] as const,
  registers: [registry],
});

/**
 * Traffic shaping (modules/mail/site-shaper.ts), by site: a named site's name, `other` for the
 * rest. Held: emails put off because the site's rate (`rate`) or a slow-down (`suspended`) did
 * not allow them yet. Slow-downs: "slow down" answers that suspended a site.
 */
export const siteHeld = new Counter({
  name: 'postbox_delivery_site_held_total',
  help: 'Emails put off by traffic shaping, by destination site and why.',
  labelNames: ['site', 'why'] as const,
  registers: [registry],
});

/** Emails put off to the next UTC day because every address of their pool reached its warm-up cap (modules/mail/source-addresses.ts). */
export const warmUpHeld = new Counter({
  name: 'postbox_delivery_warmup_held_total',
  help: 'Emails put off to the next day by the warm-up caps of their IP pool.',
  labelNames: ['pool'] as const,
  registers: [registry],
});

/** TLS reports (RFC 8460) sent to recipient domains, by `mail` or `https`, `sent` or `failed` (modules/tls-reports). */
export const tlsReportsSent = new Counter({
  name: 'postbox_tls_reports_total',
  help: 'TLS reports sent to recipient domains, by how and with what result.',
  labelNames: ['via', 'result'] as const,
  registers: [registry],
});

export const siteSlowDowns = new Counter({
  name: 'postbox_delivery_site_slowdowns_total',
  help: 'Slow-down answers (421, rate-limit codes) that suspended a destination site.',
  labelNames: ['site'] as const,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'postbox_webhook_attempts_total',
  help: 'Webhook delivery attempts, by result',
  labelNames: ['result'],
  registers: [registry],
});

export const webhookAttemptSeconds = new Histogram({
  name: 'postbox_webhook_attempt_seconds',
  help: 'Duration of one signed webhook POST, until the receiver answered or timed out',
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

/** A queue's counts: jobs waiting (future retries and schedules included), and those ready now. */
export interface QueueCounts {
  queued: number;
  ready: number;
}

/**
 * Jobs waiting in each pg-boss queue. Set when `/metrics` is scraped (a collect function is
 * registered by the process that has a boss), so the figure costs nothing between scrapes.
 */
let queueDepthSource: (() => Promise<Record<string, QueueCounts>>) | null = null;

/** Where postbox_queue_depth and postbox_queue_ready read their figures when scraped (the process's pg-boss). */
export function readQueueDepthFrom(source: () => Promise<Record<string, QueueCounts>>): void {
  queueDepthSource = source;
}

export const queueReady = new Gauge({
  name: 'postbox_queue_ready',
  help: 'Jobs ready to run now per queue (waiting, not deferred to a later time), read at scrape time',
  labelNames: ['queue'],
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'postbox_queue_depth',
  help: 'Jobs waiting (created or retrying) per queue, read at scrape time',
  labelNames: ['queue'],
  registers: [registry],
  async collect() {
    // A scrape while the database is away leaves the last figures rather than failing /metrics.
    const depth = await queueDepthSource?.().catch(() => null);
    for (const [queue, n] of Object.entries(depth ?? {})) {
      this.set({ queue }, n.queued);
      queueReady.set({ queue }, n.ready);
    }
  },
});

/** How long a job waited from when it could run (created, or its retry or schedule due) until a worker took it. */
export const jobWait = new Histogram({
  name: 'postbox_job_wait_seconds',
  help: 'Time from when a job could run until a worker started it, per queue (the age of the queue as workers see it)',
  labelNames: ['queue'],
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600],
  registers: [registry],
});

/** Webhooks paused by the engine, by reason: failures, gone (a 410), retry_window (down for the whole window). */
export const webhooksPaused = new Counter({
  name: 'postbox_webhooks_paused_total',
  help: 'Webhooks the engine paused, by reason (failures, gone, retry_window)',
  labelNames: ['reason'],
  registers: [registry],
});

let databaseProbe: (() => Promise<unknown>) | null = null;

/** What postbox_database_up asks when scraped (one `select 1` on the process's pool). */
export function probeDatabaseWith(probe: () => Promise<unknown>): void {
  databaseProbe = probe;
}

/** How long the probe may take before the database counts as down for this scrape. */
const PROBE_MS = 2000;

export const databaseUp = new Gauge({
  name: 'postbox_database_up',
  help: 'Whether this process reached PostgreSQL at scrape time (1) or not within 2 s (0)',
  registers: [registry],
  async collect() {
    if (!databaseProbe) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), PROBE_MS)));
    const up = await Promise.race([databaseProbe(), late]).then(
      () => 1,
      () => 0,
    );
    clearTimeout(timer);
    this.set(up);
  },
});

/** HTTP requests of the api role, labelled by route template (`/v1/domains/{domain_id}`), never by raw path. */
export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Live streams (`/graphql/stream`) this process holds open (http/stream-guard.ts). */
export const liveStreams = new Gauge({
  name: 'postbox_live_streams',
  help: 'Live streams (/graphql/stream) open in this process',
  registers: [registry],
});

/** Streams refused at their limit (`account`: STREAMS_PER_ACCOUNT, `process`: STREAMS_MAX), and streams ended because their reader fell behind (`behind`: STREAM_BUFFER_EVENTS). */
export const liveStreamsStopped = new Counter({
  name: 'postbox_live_streams_stopped_total',
  help: 'Live streams refused at a limit (account, process) or ended because their client fell behind (behind)',
  labelNames: ['why'],
  registers: [registry],
});

export const unexpectedErrors = new Counter({
  name: 'unexpected_errors_total',
  help: 'Errors that were masked as 500 (each is logged with its request id)',
  registers: [registry],
});

/** Rows the retention purge deleted, by table (`messages` counts messages; their emails and activities go with them). */
export const retentionPurged = new Counter({
  name: 'postbox_retention_purged_total',
  help: 'Rows deleted by the retention purge, by table',
  labelNames: ['table'],
  registers: [registry],
});

export const retentionPartitionsDropped = new Counter({
  name: 'postbox_retention_partitions_dropped_total',
  help: 'Weeks of a partitioned log table dropped whole by the retention purge, by table',
  labelNames: ['table'],
  registers: [registry],
});

/** Template renders that failed: `accept` answered 422; `deliver` fell back to the `{{var}}` replacer (src/modules/sending/render.ts). */
export const templateRenderFailures = new Counter({
  name: 'postbox_template_render_failures_total',
  help: 'Template renders that failed, by stage (accept: the send got a 422; deliver: sent with plain {{var}} replacement)',
  labelNames: ['stage'],
  registers: [registry],
});

/** Template renders by where they ran: the event loop (plain `{{var}}` over small data) or the render pool (src/modules/sending/render.ts). */
export const templateRenders = new Counter({
  name: 'postbox_template_renders_total',
  help: 'Template renders of sends and emails, by thread (event_loop: cheap {{var}} renders; pool: worker threads with a hard time limit)',
  labelNames: ['thread'],
  registers: [registry],
});

/** JSON request bodies parsed, by where: the event loop (small bodies) or the parser threads (src/http/json-body.ts). */
export const jsonBodiesParsed = new Counter({
  name: 'postbox_json_bodies_parsed_total',
  help: 'JSON request bodies parsed, by thread (event_loop: bodies up to 256 KB; pool: larger ones, in worker threads)',
  labelNames: ['thread'],
  registers: [registry],
});

/** Tracking requests refused (404) because they came for another domain's tracking host (modules/tracking). */
export const trackingForeignHost = new Counter({
  name: 'postbox_tracking_foreign_host_total',
  help: 'Tracking requests refused because the token belongs to another domain than the tracking host they came for, by kind (open, click, unsubscribe)',
  labelNames: ['kind'],
  registers: [registry],
});

/** Messages whose bodies delivery dropped once sent, because track_content was off (engines/delivery/delivery.repository.ts). */
export const messageContentDropped = new Counter({
  name: 'postbox_message_content_dropped_total',
  help: 'Messages whose html, text, personalization and attachments were dropped after delivery (track_content off)',
  registers: [registry],
});

export const logins = new Counter({
  name: 'postbox_logins_total',
  help: 'Console logins (POST /auth/login), by outcome: ok, bad_credentials, totp_required, throttled, busy (the password hashing was at its cap)',
  labelNames: ['outcome'],
  registers: [registry],
});
