/**
 * What each figure of a bench's `BENCH {...}` line means, what it is compared with in the same
 * run, and its target: the vocabulary of docs/performance.md (scripts/performance-doc.ts). A
 * figure's name is the key the bench prints, so it keeps its meaning from one run to the next.
 */

/** A target a figure meets or not; `figures` are the other figures of the same line. */
export interface Target {
  text: string;
  met(value: number, figures: Record<string, number>): boolean;
}

export interface Figure {
  meaning: string;
  /** A comparison worth showing beside the value, from the other figures of the line. */
  note?: (value: number, figures: Record<string, number>) => string | undefined;
  /** What the figure is compared with, measured in the same run; `of` computes its value when it can. */
  baseline?: { text: string; of?: (figures: Record<string, number>) => number | undefined };
  target?: Target;
}

export interface Bench {
  /** The npm script, `bench:<name>`. */
  name: string;
  what: string;
  /** A key only this bench prints: how its line is told from the others'. */
  signature: string;
  figures: Record<string, Figure>;
}

/** A bound as a reader expects it: a ratio of 1 as `1.0`, a rate of 1500 as `1,500`. */
const bound = (n: number, unit: string) => (!unit && Number.isInteger(n) ? n.toFixed(1) : n.toLocaleString('en-US')) + unit;
const atLeast = (n: number, unit = ''): Target => ({ text: `≥ ${bound(n, unit)}`, met: (v) => v >= n });
const atMost = (n: number, unit = ''): Target => ({ text: `≤ ${bound(n, unit)}`, met: (v) => v <= n });
const MEMORY = atMost(250, ' MB');
const ratioBase = (text: string, figure: string, ratio: string) => ({
  text,
  of: (f: Record<string, number>) => (f[figure] && f[ratio] ? Math.round(f[figure] / f[ratio]) : undefined),
});

const SENDING: Bench = {
  name: 'sending',
  what: 'POST /v1/email at 50 connections against bare fastify routes on their own pg pool, its GraphQL twin, then 2,000 DKIM-signed sends accepted and delivered by the api and the worker as separate processes into a local SMTP sink, against the same signed messages sent through one pooled nodemailer transport. The partitioned tables hold a year of weeks.',
  signature: 'rest_ratio',
  figures: {
    rest_ratio: {
      meaning: 'POST /v1/email requests per second ÷ the baseline route',
      baseline: { text: 'a bare route doing the same writes as separate statements in one transaction (no auth, metering, validation or suppression check)' },
      target: atLeast(1.0),
    },
    rest_p99_ratio: { meaning: "POST /v1/email's p99 latency ÷ the baseline route's", baseline: { text: 'the same bare route' }, target: atMost(1.5) },
    rest_over_single_insert: {
      meaning: 'POST /v1/email requests per second ÷ a bare route doing one INSERT per request, the floor of one durable write',
      baseline: { text: 'a bare route, one INSERT per request' },
      target: atLeast(0.4),
    },
    graphql_ratio: {
      meaning: 'POST /graphql `send_email` requests per second ÷ the baseline route',
      baseline: { text: 'the same bare route; compared with `rest_ratio`' },
      note: (v, f) => (f.rest_ratio ? `${(v / f.rest_ratio).toFixed(2)} × \`rest_ratio\`` : undefined),
      target: { text: 'within 10 % of `rest_ratio`', met: (v, f) => Boolean(f.rest_ratio) && Math.abs(v / f.rest_ratio - 1) <= 0.1 },
    },
    drain_msgs_per_s: { meaning: 'a backlog of 2,000 messages delivered per second, from the stopped worker\'s resumption until the sink holds them all (best of three runs)', target: atLeast(400, ' msgs/s') },
    drain_ratio: {
      meaning: 'the drain ÷ the pooled nodemailer loop (best of three runs each, alternated)',
      baseline: ratioBase('the same signed messages through one pooled nodemailer transport into the same sink, msgs/s', 'drain_msgs_per_s', 'drain_ratio'),
      target: atLeast(0.7),
    },
    end_to_end_msgs_per_s: { meaning: '2,000 sends accepted as fast as 50 connections go, per second from the first accept to the last delivery', target: atLeast(250, ' msgs/s') },
    api_rss_mb: { meaning: "the api process's peak RSS, accepting and delivering", target: MEMORY },
    worker_rss_mb: { meaning: "the worker process's peak RSS while delivering", target: MEMORY },
  },
};

const DRAIN: Bench = {
  name: 'drain',
  what: 'The delivery drain alone: a warmed worker process drains a backlog of 3,000 DKIM-signed messages into a local SMTP sink, timed from its first delivery to its last, against the pooled nodemailer loop; with the CPU and statements each message costs. The partitioned tables hold a year of weeks.',
  signature: 'bare_msgs_per_s',
  figures: {
    drain_msgs_per_s: { meaning: 'messages delivered per second', target: atLeast(400, ' msgs/s') },
    bare_msgs_per_s: { meaning: 'the baseline: the same signed messages through one pooled nodemailer transport, per second' },
    drain_ratio: { meaning: 'the drain ÷ the baseline', baseline: { text: 'the pooled nodemailer loop, msgs/s', of: (f) => f.bare_msgs_per_s }, target: atLeast(0.7) },
    worker_cpu_ms_per_msg: { meaning: "the worker process's CPU (all threads) per message, ms" },
    worker_queries_per_msg: { meaning: 'statements the worker sends per message' },
    postgres_cpu_ms_per_msg: { meaning: "PostgreSQL's CPU per message, ms" },
    bare_client_cpu_ms_per_msg: { meaning: "the baseline loop's own CPU per message (the sink's excluded), ms" },
    worker_rss_mb: { meaning: "the worker process's peak RSS", target: MEMORY },
  },
};

const MEMORY_BENCH: Bench = {
  name: 'memory',
  what: 'Resident memory of the api and the worker, each in its own process: idle, accepting and draining 2,000 DKIM-signed sends, then serving GET /v1/token at 20 connections; with the CPU each role spends per message or request.',
  signature: 'api_idle_rss_mb',
  figures: {
    api_idle_rss_mb: { meaning: 'api RSS once started, idle', target: MEMORY },
    worker_idle_rss_mb: { meaning: 'worker RSS once started, idle', target: MEMORY },
    api_send_rss_mb: { meaning: 'api peak RSS while sends are accepted', target: MEMORY },
    worker_rss_mb: { meaning: 'worker peak RSS while it drains', target: MEMORY },
    api_list_rss_mb: { meaning: 'api peak RSS under the list load', target: MEMORY },
    api_ms_per_send: { meaning: "the api process's CPU per accepted send, ms" },
    api_main_ms_per_send: { meaning: "the api's main thread CPU per accepted send, ms" },
    worker_ms_per_message: { meaning: "the worker process's CPU per delivered message, ms" },
    worker_main_ms_per_message: { meaning: "the worker's main thread CPU per delivered message, ms" },
    api_us_per_list: { meaning: "the api process's CPU per list request, µs" },
    api_main_us_per_list: { meaning: "the api's main thread CPU per list request, µs" },
  },
};

const ROUTING: Bench = {
  name: 'routing',
  what: '/v1 dispatch and lists against GET /health, and the GraphQL twins of a /v1 list, read by id and mutation, the api role in its own process at 20 connections.',
  signature: 'token_list_ratio',
  figures: {
    token_list_ratio: { meaning: 'authenticated GET /v1/token (full pager) requests per second ÷ GET /health', baseline: { text: 'GET /health (fastify and `select 1`), req/s', of: (f) => f.health_rps }, target: atLeast(0.35) },
    graphql_over_v1: { meaning: 'POST /graphql `{ tokens }` requests per second ÷ GET /v1/token', baseline: { text: 'GET /v1/token, req/s', of: (f) => f.token_list_rps }, target: atLeast(0.95) },
    graphql_over_v1_by_id: { meaning: 'POST /graphql `{ token(token_id) }` requests per second ÷ GET /v1/token/{id}', baseline: { text: 'GET /v1/token/{id}' }, target: atLeast(0.95) },
    graphql_over_v1_mutation: { meaning: 'POST /graphql `update_token` requests per second ÷ PUT /v1/token/{id}', baseline: { text: 'PUT /v1/token/{id}' }, target: atLeast(0.95) },
    token_list_rps: { meaning: 'GET /v1/token requests per second' },
    health_rps: { meaning: 'the baseline: GET /health requests per second' },
    token_list_25_rps: { meaning: 'GET /v1/token with a page of 25 tokens, requests per second' },
    api_rss_mb: { meaning: "the api process's peak RSS", target: MEMORY },
  },
};

const WEBHOOKS: Bench = {
  name: 'webhooks',
  what: 'Webhook deliveries of 4,000 events to a local receiver that answers at once: the engine (dispatch, sign, post, record, account) against a bare loop posting the same signed bodies over kept-alive connections; six alternated runs a side after a warm-up, the best counting. The partitioned tables hold a year of weeks, as with an account on a plan that keeps a year.',
  signature: 'deliveries_per_s',
  figures: {
    deliveries_per_s: { meaning: "the engine's deliveries per second (best run)", target: atLeast(1500, '/s') },
    ratio: { meaning: 'the engine ÷ the bare loop', baseline: ratioBase('a bare kept-alive signed-POST loop, requests/s', 'deliveries_per_s', 'ratio'), target: atLeast(0.8) },
    postgres_us_per_delivery: { meaning: "PostgreSQL's CPU per webhook delivery (dispatch, record, log), µs (median run)" },
    statements_per_delivery: { meaning: 'statements the engine sends per webhook delivery (median run)' },
    wal_bytes_per_delivery: { meaning: 'WAL PostgreSQL writes per webhook delivery, bytes (median run)' },
  },
};

const SCALE: Bench = {
  name: 'scale',
  what: 'The activity list and analytics of one domain at 10k, 100k and 1M stored activities, the api role in its own process at 10 connections, each against GET /health at that moment. The partitioned tables hold a year of weeks, the activities in the weeks of their moments.',
  signature: 'list_p1_p99_growth',
  figures: {
    list_p1_p99_growth: { meaning: "the first page's p99 at 1M activities ÷ its p99 at 10k: the list stays flat as data grows", target: atMost(1.5) },
    list_p1_rps: { meaning: 'GET /v1/activity/{domain}, page 1 of 25, requests per second at 1M activities', target: atLeast(700, ' req/s') },
    api_rss_mb: { meaning: "the api process's peak RSS", target: MEMORY },
  },
};

const RETENTION: Bench = {
  name: 'retention',
  what: "The retention purge deleting messages past their retention with their emails and activities, in batches as its job runs it, against one plain DELETE of the same rows; then two weeks of the partitioned webhook log, and two weeks of mail, of 10x different sizes, each dropped whole.",
  signature: 'purge_rows_per_s',
  figures: {
    purge_rows_per_s: { meaning: 'rows the purge deletes per second' },
    plain_rows_per_s: { meaning: 'the baseline: one `DELETE FROM messages WHERE created_at < x` of the same rows, rows per second' },
    ratio: { meaning: 'the purge ÷ the plain delete: what batching costs', baseline: { text: 'the plain delete, rows/s', of: (f) => f.plain_rows_per_s } },
    messages: { meaning: 'messages made, each with one email and two activities (run parameter)' },
    rows: { meaning: 'rows deleted by each side (run parameter)' },
    batch: { meaning: 'messages per delete statement, `RETENTION_PURGE_BATCH` (run parameter)' },
    drop_small_ms: { meaning: "the job's partition work dropping a week of the webhook log holding a tenth of `messages` attempts, ms" },
    drop_large_ms: { meaning: 'the same, dropping a week holding `messages` attempts, ms' },
    drop_ratio: { meaning: 'the large drop ÷ the small, for 10x the rows: a drop does not take time in proportion to its rows, as deleting them would', target: atMost(3), baseline: { text: 'the small drop, ms', of: (f) => f.drop_small_ms } },
    mail_drop_small_ms: { meaning: "the job's partition work dropping a week of mail (five tables) holding a tenth of `messages` messages, each with an email, two activities and an attachment, ms" },
    mail_drop_large_ms: { meaning: 'the same, dropping a week of mail holding `messages` messages, ms' },
    mail_drop_ratio: { meaning: 'the large mail drop ÷ the small, for 10x the rows: what grows is the filesystem freeing larger files, not work per row' },
    mail_drop_vs_purge: {
      meaning: "the large mail drop ÷ the purge deleting the same number of messages (with their emails and activities) by rows, in this run: a week of mail goes for a small part of what deleting it would cost, and leaves nothing to vacuum",
      target: atMost(0.1),
      baseline: { text: 'the purge by rows, ms', of: (f) => Math.round((f.rows / f.purge_rows_per_s) * 1000) },
    },
  },
};

const SWEEP: Bench = {
  name: 'sweep',
  what: 'The bad-input sweep (docs/reliability.md), then the worst input of each parser and renderer sent alone to a service of every role, with the event loop\'s longest delay around each.',
  signature: 'sweep_worst_loop_delay_ms',
  figures: {
    sweep_worst_loop_delay_ms: { meaning: "the event loop's longest delay over the worst inputs, ms", target: atMost(200, ' ms') },
  },
};

/** The scale-out figures of one worker count, `_w<n>` after each name. */
function scaleOutFigures(n: number): Record<string, Figure> {
  const workers = `${n} worker${n > 1 ? 's' : ''}`;
  return {
    [`lost_w${n}`]: { meaning: `${workers}: accepted messages that never reached the sink, both rounds`, target: atMost(0) },
    [`duplicates_w${n}`]: {
      meaning: `${workers}: copies beyond the first at the sink, both rounds (a kill between a 250 and its record: the SMTP window)`,
      target: { text: '≤ `DELIVERY_CONCURRENCY` (the SMTP window of one kill)', met: (v) => v <= 64 },
    },
    [`webhook_events_w${n}`]: { meaning: `${workers}: distinct \`activity.delivered\` events received (the fewer of the two rounds)`, target: { text: '= messages', met: (v, f) => v === f.messages } },
    [`drain_s_without_kill_w${n}`]: { meaning: `${workers}: seconds from the workers' start until every message and event arrived` },
    [`drain_s_with_kill_w${n}`]: {
      meaning: `${workers}: the same with one worker SIGKILLed at a third: every email the killed worker had taken, claimed or not yet, should be out within 30 s of the kill`,
      baseline: { text: 'the drain without the kill, s', of: (f) => f[`drain_s_without_kill_w${n}`] },
      target: atMost(40, ' s'),
    },
    [`takeover_s_w${n}`]: { meaning: `${workers}: seconds from the kill until every email held at that moment reached the sink`, target: atMost(30, ' s') },
    [`worker_cpu_ms_per_msg_w${n}`]: { meaning: `${workers}: the workers' CPU per message (all of them), ms` },
    [`postgres_drain_cpu_ms_per_msg_w${n}`]: { meaning: `${workers}: PostgreSQL's CPU per message while draining, ms` },
  };
}

const SCALEOUT: Bench = {
  name: 'scaleout',
  what: 'Two api processes and 1 to 4 worker processes against one PostgreSQL: a backlog accepted through both api processes while no worker runs, drained into a local SMTP sink with a webhook on `activity.delivered`, once as it is and once with a worker SIGKILLed at a third.',
  signature: 'takeover_s_w1',
  figures: {
    messages: { meaning: 'messages per round (run parameter)' },
    api_processes: { meaning: 'api processes accepting (run parameter)' },
    api_cpu_ms_per_msg: { meaning: "the api processes' CPU per accepted message, ms" },
    postgres_accept_cpu_ms_per_msg: { meaning: "PostgreSQL's CPU per accepted message, ms" },
    wal_bytes_per_accept: { meaning: 'WAL PostgreSQL writes per accepted message (the message, its email, activity, counts and job), bytes' },
    wal_bytes_per_delivery: { meaning: 'WAL per delivered message, its outcome, activities, counts, job and webhook delivery included, bytes (1 worker)' },
    primary_msgs_per_core_s: {
      meaning: "messages a second one core of PostgreSQL absorbs end to end (accepted, delivered, one webhook event each) when its CPU is the limit: 1000 ÷ (PostgreSQL's ms per accept + per delivery, 1 worker); docs/capacity.md",
    },
    ...scaleOutFigures(1),
    ...scaleOutFigures(2),
    ...scaleOutFigures(3),
    ...scaleOutFigures(4),
  },
};

function subscriptionFigures(n: number): Record<string, Figure> {
  const size = `${n.toLocaleString('en-US')} listeners`;
  return {
    [`events_per_s_l${n}`]: { meaning: `${size}: events delivered to listeners a second, from the first send to the last event` },
    [`p50_ms_l${n}`]: { meaning: `${size}: median time from /v1's 202 to the event at a listener, ms` },
    [`p99_ms_l${n}`]: { meaning: `${size}: p99 of the same, ms` },
    [`kb_per_listener_l${n}`]: { meaning: `${size}: the listening api process's resident memory growth with its listeners open, KB per listener` },
    [`api_rss_mb_l${n}`]: { meaning: `${size}: the listening api process's peak RSS, MB`, target: atMost(500, ' MB') },
    [`bare_events_per_s_l${n}`]: { meaning: `${size}: the baseline's events a second` },
    [`ratio_l${n}`]: {
      meaning: `${size}: events a second ÷ the baseline's`,
      baseline: { text: 'the bare SSE fan-out of the same sends, events/s', of: (f) => f[`bare_events_per_s_l${n}`] },
      target: n >= 5000 ? atLeast(0.5) : undefined,
    },
    [`foreign_events_l${n}`]: { meaning: `${size}: events a listener heard of another domain or account`, target: atMost(0) },
    [`lost_events_l${n}`]: { meaning: `${size}: events a listener should have heard and did not` },
  };
}

const SUBSCRIPTIONS: Bench = {
  name: 'subscriptions',
  what: 'SSE listeners of `activity` on one api process, spread over 5 accounts and 4 domains each, half with the account\'s token and half with a token limited to the domain, while emails are sent through /v1 on a second api process (every event crosses processes by NOTIFY); against a bare SSE fan-out process that hears the same events of the same sends by the same NOTIFY and writes each notice to as many listeners.',
  signature: 'ratio_l1000',
  figures: {
    emails: { meaning: 'emails sent per size (run parameter)' },
    ...subscriptionFigures(1000),
    ...subscriptionFigures(5000),
  },
};

const SHAPING: Bench = {
  name: 'shaping',
  what: 'Two worker processes delivering with `MAIL_TRANSPORT=mx` to two local providers: a site with no rate, drained alone and then beside a backlog for a site `DELIVERY_SHAPING` limits to a rate a minute, which is then watched for a minute and a half (docs/delivery.md).',
  signature: 'paced_most_in_60s',
  figures: {
    workers: { meaning: 'worker processes (run parameter)' },
    paced_limit_per_min: { meaning: "the paced site's `per_minute` (run parameter)" },
    fast_alone_msgs_per_s: { meaning: "the other site's drain alone, messages a second" },
    fast_beside_paced_msgs_per_s: { meaning: "the other site's drain beside the paced site's backlog, messages a second" },
    fast_ratio: {
      meaning: "the other site's drain beside the paced backlog ÷ alone: the paced site does not hold up the others",
      baseline: { text: 'the drain alone', of: (f) => f.fast_alone_msgs_per_s },
      target: atLeast(0.8),
    },
    paced_most_in_60s: {
      meaning: 'the most messages the paced site took in any 60 seconds',
      baseline: { text: 'its per_minute', of: (f) => f.paced_limit_per_min },
      target: { text: '≤ its per_minute', met: (v, f) => v <= f.paced_limit_per_min },
    },
    paced_taken_90s: { meaning: 'messages the paced site took in the 90 seconds watched' },
  },
};

/** Every bench that prints a `BENCH {...}` line, in the page's order. */
export const BENCHES: readonly Bench[] = [SENDING, DRAIN, WEBHOOKS, ROUTING, MEMORY_BENCH, SCALE, RETENTION, SWEEP, SCALEOUT, SHAPING, SUBSCRIPTIONS];
