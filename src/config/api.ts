import { z } from 'zod';

/** The API (docs/configuration.md). */
export const apiSettings = {
  GRAPHQL_INTROSPECTION: z
    .enum(['public', 'authenticated', 'off', 'true', 'false', '1', '0'])
    .transform((v): 'public' | 'authenticated' | 'off' => (v === 'true' || v === '1' ? 'authenticated' : v === 'false' || v === '0' ? 'off' : v))
    .default('authenticated')
    .describe('Who may ask for the schema (`__schema`, `__type`) on `/graphql` and `/graphql/stream`: `public` (anyone), `authenticated` (an account token, a console session or the operator token; others get 401) or `off` (400; GraphiQL is not served either). `true`/`1` mean `authenticated`, `false`/`0` mean `off`.'),
  GRAPHQL_MAX_DEPTH: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe("Deepest nesting of a GraphQL document's selections (fragments add no depth; the introspection query is exempt)."),
  GRAPHQL_MAX_COST: z.coerce
    .number()
    .int()
    .min(1)
    .default(10_000)
    .describe('Highest cost of one GraphQL operation: each field costs 1, and whatever sits under a field with a `limit` argument counts `limit` times (at most 100).'),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15).describe('Most aliases in one GraphQL operation (`__typename` not counted).'),
  GRAPHQL_MAX_TOKENS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe('Most tokens in one GraphQL document; parsing stops there (send big inputs as variables, which do not count).'),
  GRAPHQL_ALLOWLIST: z
    .string()
    .optional()
    .describe('Path of a JSON file of persisted operations: `{"<sha256 hex of the document>": "<document>"}` or an Apollo persisted query manifest. When set, only listed documents run on `/graphql` and `/graphql/stream`, sent by id (`extensions.persistedQuery.sha256Hash`) or as text that prints the same as a listed one; anything else gets 400. `/v1` is not affected; the operator API\'s operations must be listed too.'),
  SESSION_OPERATIONS: z
    .enum(['any', 'console'])
    .default('any')
    .describe("What a console session (the console's cookie) may run on `/graphql` and `/graphql/stream`: `any` document, or only the `console`'s own operations (the ids and documents of the built console's `console/dist/persisted-documents.json`), so a stolen or scripted session cannot run arbitrary queries; anything else gets 400. API tokens are not affected. The console sends its operations by id either way."),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(40 * 1024 * 1024)
    .describe('Body limit of the routes that take files: `POST /v1/email`, `POST /v1/bulk-email`, `POST /v1/dmarc-monitoring/{id}/reports` and `/graphql`. Larger bodies get 413.'),
  DEFAULT_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024)
    .describe('Body limit of every other route, `/graphql/stream` included. `POST /v1/email-verification` and its `/{id}/emails` take at least 4 MiB and `POST`/`PUT /v1/templates` at least 5 MiB, never more than `MAX_BODY_BYTES`.'),
  ANONYMOUS_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024)
    .describe('Largest body a request without credentials (no Authorization header, no session cookie) may send to a route that needs a login (`/graphql`, `/graphql/stream`, `/v1`); larger: 401 before the body is read.'),
  RATE_LIMIT_REQUESTS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description: 'Requests one API token may make per rate window; over it, `429 {"message":"Too Many Attempts."}` with `retry-after`. Set, one figure for every plan.',
      defaultText: 'by plan: free 120, starter 300, professional 600, enterprise 1200',
    }),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(60)
    .describe("Length of a token's (and an account's) rate window; it starts at the first request after the previous window ended."),
  ACCOUNT_RATE_LIMIT_REQUESTS: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description: 'Requests one account may make per rate window over all its tokens and SMTP users together, so new tokens make no new room; over it, 429 as for a token.',
      defaultText: "ten times the token limit",
    }),
  API_QUOTA_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .default(100_000)
    .describe('Requests one account may make per UTC day, over all its tokens; over it, 429 until the next UTC midnight.'),
  TOKEN_CACHE_SECONDS: z.coerce
    .number()
    .min(0)
    .max(300)
    .default(5)
    .describe("How long a process keeps an authenticated API token (its account, scopes, domain and plan) without reading it again; `0` keeps none. Pausing, deleting or changing a token, deleting its domain or account, or changing the account's plan reaches every process within milliseconds by NOTIFY (the process that made the change forgets it before answering); this age is the fallback if a notice is lost (entries read before the LISTEN connection last reconnected are not used). Unknown and paused tokens are never kept."),
  METER_FLUSH_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(5000)
    .default(250)
    .describe('How often a process writes the API requests it counted in memory. A request whose token and account have nothing unwritten in its process is counted by one statement; requests in parallel are counted in memory against the counts last read, and written in one statement per interval.'),
  METER_MAX_PENDING: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(100)
    .describe('Requests one process may count in memory for one token or account before it must write them. Within one process the limits are exact; with P processes serving one token or account, at most (P − 1) × this many requests per flush interval are served over a limit.'),
  SEND_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .default(5)
    .describe("How long a process keeps an account's plan and sending domains (verification, trust, `send_paused`, duplicate handling) to accept sends without reading them; `0` keeps none. Any change to a domain or to the plan reaches every process within milliseconds by a database trigger's NOTIFY, whatever made it; this age is the fallback if a notice is lost (nothing is kept while the LISTEN connection is down, or from before it reconnected). A send refused on kept data is judged again on fresh data."),
  ACCEPT_LANES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(2)
    .describe('Acceptance statements one process runs at once. Sends that arrive while they all run wait and go together in the next one, up to `ACCEPT_BATCH_MAX` sends (group commit), so under load a send costs a share of one round trip and one commit. Each send keeps its own outcome: a shared statement in which any send finds a suppression, or that fails, writes nothing, and its sends are written each on its own. Sends with an `Idempotency-Key` and the items of a bulk send are always written alone. `/metrics` shows `postbox_accept_statement_sends`.'),
  ACCEPT_BATCH_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(32)
    .describe('The most sends one acceptance statement writes (see `ACCEPT_LANES`); `1` writes every send alone.'),
  STREAM_BUFFER_EVENTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10000)
    .default(200)
    .describe("Events one live stream (`/graphql/stream`) may hold for a client that reads them slower than they come. Past it the stream drops them, answers one `STREAM_BEHIND` error event and completes; the client subscribes again and reads what it missed from the list the stream follows. So a slow listener holds a bounded amount of memory."),
  STREAM_BEHIND_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .default(30)
    .describe("How long a stream that fell behind (`STREAM_BUFFER_EVENTS`) waits for its client to read the `STREAM_BEHIND` event before its connection is cut."),
  STREAMS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe("Live streams one account may hold open on one process at once; the next answers 429. Each open stream holds a connection and some memory (docs/capacity.md)."),
  STREAMS_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .default(10000)
    .describe("Live streams one process holds open at once, all accounts together; the next answers 503 with `retry-after` (another process, behind the same proxy, may take it)."),
};
